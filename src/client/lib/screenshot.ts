/** Hide what is marked screenshot-hidden, wait 500 ms, render the whole body to a PNG data URL, restore. */
export const SCREENSHOT_WAIT_MS = 500;

export async function capturePage(): Promise<string | null> {
  const hidden = [...document.querySelectorAll<HTMLElement>('[data-screenshot-hidden]')];
  const previous = hidden.map((el) => el.style.visibility);
  hidden.forEach((el) => {
    el.style.visibility = 'hidden';
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, SCREENSHOT_WAIT_MS));
    const { default: html2canvas } = await import('html2canvas-pro'); // loaded on first capture only
    const canvas = await html2canvas(document.body, { logging: false, useCORS: true, scale: Math.min(window.devicePixelRatio, 1.5) });
    return canvas.toDataURL('image/png');
  } catch (error) {
    console.error('capture d’écran impossible', error); // a capture failure is only logged
    return null;
  } finally {
    hidden.forEach((el, i) => {
      el.style.visibility = previous[i] ?? '';
    });
  }
}
