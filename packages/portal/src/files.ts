/** Files chosen in a form, as the API takes them: base64 content (no data: prefix) with the file's name. */

/** The file's bytes as base64 (without a data: prefix). */
export const base64Of = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => {
      const url = String(reader.result)
      resolve(url.slice(url.indexOf(",") + 1))
    }
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(file)
  })

/** One file as an uploaded document: its name and base64 content. */
export const uploadOf = async (file: File) => ({ filename: file.name, content_base64: await base64Of(file) })

/** The documents chosen per requirement (by uid; unset ones left out), read as uploads. */
export const requirementDocuments = (files: Record<string, File | undefined>) =>
  Promise.all(
    Object.entries(files).flatMap(([uid, f]) =>
      f === undefined ? [] : [uploadOf(f).then((upload) => ({ requirement_uid: uid, ...upload }))]
    )
  )
