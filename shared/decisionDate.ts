// A decision's date as the person reads it: in their locale (the editor's display language), not
// raw ISO. Shared by the Proposals tree, the hover and the relationship panel so all three agree.

import type { DateText } from './decisionChange.ts';

/** Day and time in `locale`; an unparseable stamp is shown as stored rather than as "Invalid Date". */
export function localDateText(locale: string | undefined): DateText {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  } catch {
    // An unknown locale tag (settings are untrusted input) falls back to the runtime's own.
    format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }
  return (iso) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : format.format(date);
  };
}
