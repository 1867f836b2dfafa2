// The units and currencies a figure may carry, and the canonical unit of each dimension, so that
// "12 t", "12 tonnes" and "12,000 kg" become the same claim value. Canonical units are SI-style
// (kg, m, m2, l, h, km/h, kWh, kW, bar, °C). Calendar units that have no fixed length (months,
// years, working days) and effort (person-hours) stay units of their own and are never converted.
// Ambiguous words are left out on purpose: "pounds" (money or weight), "tons" (short or metric),
// "gallons" (US or imperial), bare "s", "l" and "W" ("7203 W Deschutes Avenue").

export type Dimension =
  | 'mass' | 'length' | 'area' | 'volume' | 'duration' | 'effort' | 'speed' | 'energy' | 'power'
  | 'temperature' | 'pressure';

export interface UnitInfo {
  dimension: Dimension;
  /** Canonical unit the value is converted to. */
  unit: string;
  /** Multiply a value in this unit by factor to get the canonical unit. */
  factor: number;
}

const u = (dimension: Dimension, unit: string, factor: number): UnitInfo => ({ dimension, unit, factor });

/** Abbreviations, matched with their case exactly ("t" is a tonne, "T" is not). */
const ABBREVIATIONS: Record<string, UnitInfo> = {
  t: u('mass', 'kg', 1000), kg: u('mass', 'kg', 1), kgs: u('mass', 'kg', 1), KG: u('mass', 'kg', 1),
  g: u('mass', 'kg', 0.001), lb: u('mass', 'kg', 0.45359237), lbs: u('mass', 'kg', 0.45359237),
  km: u('length', 'm', 1000), m: u('length', 'm', 1), cm: u('length', 'm', 0.01), mm: u('length', 'm', 0.001),
  ft: u('length', 'm', 0.3048), mi: u('length', 'm', 1609.344),
  m2: u('area', 'm2', 1), 'm²': u('area', 'm2', 1), sqm: u('area', 'm2', 1), 'sq m': u('area', 'm2', 1),
  km2: u('area', 'm2', 1e6), 'km²': u('area', 'm2', 1e6), ha: u('area', 'm2', 10000),
  'sq ft': u('area', 'm2', 0.09290304),
  ml: u('volume', 'l', 0.001), m3: u('volume', 'l', 1000), 'm³': u('volume', 'l', 1000),
  h: u('duration', 'h', 1), hr: u('duration', 'h', 1), hrs: u('duration', 'h', 1),
  min: u('duration', 'h', 1 / 60), mins: u('duration', 'h', 1 / 60), sec: u('duration', 'h', 1 / 3600),
  secs: u('duration', 'h', 1 / 3600),
  'km/h': u('speed', 'km/h', 1), kph: u('speed', 'km/h', 1), mph: u('speed', 'km/h', 1.609344),
  'm/s': u('speed', 'km/h', 3.6),
  Wh: u('energy', 'kWh', 0.001), kWh: u('energy', 'kWh', 1), MWh: u('energy', 'kWh', 1000), GWh: u('energy', 'kWh', 1e6),
  kW: u('power', 'kW', 1), MW: u('power', 'kW', 1000),
  '°C': u('temperature', '°C', 1), 'ºC': u('temperature', '°C', 1), '°F': u('temperature', '°F', 1),
  bar: u('pressure', 'bar', 1), mbar: u('pressure', 'bar', 0.001), kPa: u('pressure', 'bar', 0.01),
  MPa: u('pressure', 'bar', 10), psi: u('pressure', 'bar', 0.0689475729),
};

/** Words, matched in any case, singular and plural. */
const WORDS: Record<string, UnitInfo> = {
  tonne: u('mass', 'kg', 1000), 'metric ton': u('mass', 'kg', 1000), kilogram: u('mass', 'kg', 1),
  kilogramme: u('mass', 'kg', 1), kilo: u('mass', 'kg', 1), gram: u('mass', 'kg', 0.001), gramme: u('mass', 'kg', 0.001),
  kilometre: u('length', 'm', 1000), kilometer: u('length', 'm', 1000), metre: u('length', 'm', 1),
  meter: u('length', 'm', 1), centimetre: u('length', 'm', 0.01), centimeter: u('length', 'm', 0.01),
  millimetre: u('length', 'm', 0.001), millimeter: u('length', 'm', 0.001), foot: u('length', 'm', 0.3048),
  feet: u('length', 'm', 0.3048), inch: u('length', 'm', 0.0254), inches: u('length', 'm', 0.0254),
  mile: u('length', 'm', 1609.344),
  'square metre': u('area', 'm2', 1), 'square meter': u('area', 'm2', 1), hectare: u('area', 'm2', 10000),
  'square foot': u('area', 'm2', 0.09290304), 'square feet': u('area', 'm2', 0.09290304), acre: u('area', 'm2', 4046.8564224),
  litre: u('volume', 'l', 1), liter: u('volume', 'l', 1), millilitre: u('volume', 'l', 0.001),
  milliliter: u('volume', 'l', 0.001), 'cubic metre': u('volume', 'l', 1000), 'cubic meter': u('volume', 'l', 1000),
  second: u('duration', 'h', 1 / 3600), minute: u('duration', 'h', 1 / 60), hour: u('duration', 'h', 1),
  day: u('duration', 'h', 24), week: u('duration', 'h', 168), fortnight: u('duration', 'h', 336),
  'working day': u('duration', 'working day', 1), 'business day': u('duration', 'working day', 1),
  month: u('duration', 'month', 1), year: u('duration', 'year', 1),
  'labour hour': u('effort', 'person-h', 1), 'labor hour': u('effort', 'person-h', 1),
  'man-hour': u('effort', 'person-h', 1), 'man hour': u('effort', 'person-h', 1),
  'person-hour': u('effort', 'person-h', 1), 'person hour': u('effort', 'person-h', 1),
  'staff hour': u('effort', 'person-h', 1), 'engineer hour': u('effort', 'person-h', 1),
  'man-day': u('effort', 'person-day', 1), 'person-day': u('effort', 'person-day', 1),
  'kilowatt hour': u('energy', 'kWh', 1), 'kilowatt-hour': u('energy', 'kWh', 1),
  'megawatt hour': u('energy', 'kWh', 1000), kilowatt: u('power', 'kW', 1), megawatt: u('power', 'kW', 1000),
  watt: u('power', 'kW', 0.001), 'degrees celsius': u('temperature', '°C', 1), 'degree celsius': u('temperature', '°C', 1),
};

function plural(word: string): string {
  if (word.endsWith('inches') || word.endsWith('feet')) return word;
  if (word.endsWith('y') && !word.endsWith('ay')) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

const WORD_FORMS = new Map<string, UnitInfo>();
for (const [word, info] of Object.entries(WORDS)) {
  WORD_FORMS.set(word, info);
  WORD_FORMS.set(plural(word), info);
}
WORD_FORMS.set('hrs', ABBREVIATIONS.hrs!);

/** The unit a surface names, or null. Abbreviations must match their case; words any case. */
export function lookupUnit(surface: string): UnitInfo | null {
  const normal = surface.replace(/\s+/g, ' ');
  return ABBREVIATIONS[normal] ?? WORD_FORMS.get(normal.toLowerCase()) ?? null;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/ /g, '\\s+');

/** Regex source matching any unit surface, longest first so "km/h" wins over "km". */
export const UNIT_SOURCE = [...new Set([...Object.keys(ABBREVIATIONS), ...WORD_FORMS.keys()])]
  .sort((a, b) => b.length - a.length)
  .map(escape)
  .join('|');

/** Currency symbols and words, mapped to ISO 4217. "$" is read as USD; "¥" and "kr" are ambiguous and left out. */
const CURRENCY_SYMBOLS: Record<string, string> = {
  '€': 'EUR', '£': 'GBP', $: 'USD', US$: 'USD', A$: 'AUD', AU$: 'AUD', C$: 'CAD', CA$: 'CAD',
  NZ$: 'NZD', HK$: 'HKD', S$: 'SGD', '₹': 'INR',
};

const CURRENCY_CODES = [
  'EUR', 'USD', 'GBP', 'CHF', 'JPY', 'CAD', 'AUD', 'NZD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF',
  'INR', 'CNY', 'HKD', 'SGD', 'ZAR', 'BRL', 'MXN',
];

const CURRENCY_WORDS: Record<string, string> = {
  euro: 'EUR', euros: 'EUR', 'us dollar': 'USD', 'us dollars': 'USD', dollar: 'USD', dollars: 'USD',
  'pounds sterling': 'GBP', 'pound sterling': 'GBP', sterling: 'GBP', 'swiss francs': 'CHF', 'swiss franc': 'CHF',
  yen: 'JPY',
};

/** Regex source for a currency written before the amount. */
export const CURRENCY_BEFORE_SOURCE = [...Object.keys(CURRENCY_SYMBOLS), ...CURRENCY_CODES]
  .sort((a, b) => b.length - a.length)
  .map(escape)
  .join('|');

/** Regex source for a currency written after the amount. */
export const CURRENCY_AFTER_SOURCE = [...CURRENCY_CODES, '€', '£', ...Object.keys(CURRENCY_WORDS)]
  .sort((a, b) => b.length - a.length)
  .map(escape)
  .join('|');

export function currencyCode(surface: string): string | null {
  const normal = surface.replace(/\s+/g, ' ');
  if (CURRENCY_CODES.includes(normal)) return normal;
  return CURRENCY_SYMBOLS[normal] ?? CURRENCY_WORDS[normal.toLowerCase()] ?? null;
}

/** Magnitude words and letters after an amount: "€42k", "USD 1.2m", "3 billion". */
export const MULTIPLIER_SOURCE = 'thousand|million|billion|mn|bn|mio|k|K|m|M';

export function multiplier(surface: string | undefined): number {
  switch (surface?.toLowerCase()) {
    case undefined:
    case '':
      return 1;
    case 'k':
    case 'thousand':
      return 1e3;
    case 'm':
    case 'mn':
    case 'mio':
    case 'million':
      return 1e6;
    case 'bn':
    case 'billion':
      return 1e9;
    default:
      return 1;
  }
}
