/** A picked or dropped file as the API's uploads take it: `{ filename, content_base64 }`. */
export function readBase64(file: File): Promise<{ filename: string; content_base64: string }> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve({ filename: file.name, content_base64: url.slice(url.indexOf(',') + 1) });
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}
