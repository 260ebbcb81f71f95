/** Downloads the list as the server's CSV (BOM, ';', CRLF). */
export async function downloadCsv(fetchFile: () => Promise<{ filename: string; content: string }>) {
  const { filename, content } = await fetchFile();
  const url = URL.createObjectURL(new Blob([content], { type: 'text/csv;charset=utf-8' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  link.click();
  URL.revokeObjectURL(url);
}
