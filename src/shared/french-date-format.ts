/**
 * A fr-FR formatter of calendar dates (business dates carry no time zone: read as UTC), made at its first use. The
 * modules holding these formatters load with every page's data request, and a browser's first Intl formatter loads the
 * locale's data (20–30 ms measured in Chromium on a busy host), which a page that writes no such date should not pay
 * before its first paint.
 */
export function frenchDateFormat(options: Intl.DateTimeFormatOptions): { format: (date: Date) => string } {
  let made: Intl.DateTimeFormat | undefined;
  return {
    format: (date) => {
      made ??= new Intl.DateTimeFormat('fr-FR', { ...options, timeZone: 'UTC' });
      return made.format(date);
    },
  };
}
