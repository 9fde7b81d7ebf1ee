export default ["packages/*", "examples/embed-core"]
