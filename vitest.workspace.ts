export default ["packages/*"]
