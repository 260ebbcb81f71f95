/**
 * Whether `text` is base64 (the standard alphabet, at most two `=` of padding), checked by scanning once. The obvious
 * `/^[A-Za-z0-9+/]+={0,2}$/` keeps a backtracking position per character: on a screenshot of several MB it can
 * overflow the regular-expression stack, which throws instead of answering (seen on an 8 MB data URL).
 */
export function isBase64(text: string): boolean {
  let end = text.length;
  while (end > 0 && text.length - end < 2 && text[end - 1] === '=') end -= 1;
  return end > 0 && !/[^A-Za-z0-9+/]/.test(text.slice(0, end));
}

/** `data:<one of mediaTypes>;base64,<base64>`: the media type named, the payload base64 (`isBase64`). */
export function isBase64DataUrl(url: string, mediaTypes: readonly string[]): boolean {
  const comma = url.indexOf(',');
  const head = url.slice(0, comma + 1);
  return comma > 0 && mediaTypes.some((type) => head === `data:${type};base64,`) && isBase64(url.slice(comma + 1));
}
