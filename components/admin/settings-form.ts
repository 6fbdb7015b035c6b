/**
 * The settings forms of the admin console, as data (docs/contract.md §5.6): which fields a group
 * shows (the described settings in their order, then any the server sends that this client does not
 * describe, typed by their value), the editable draft, and the partial map to send, with each
 * field's problem when a value does not fit. Pure; the server checks the same descriptions
 * (lib/contract/site-settings.ts), so a value this accepts is one the companion server takes.
 */
import {
  coerceSetting,
  EXCLUSIVE_SETTINGS,
  SITE_SETTING_SPECS,
  settingSpec,
  type SettingProblem,
  type SettingValue,
  type SiteSettingSpec,
} from '@/lib/contract/site-settings';

/** One field of a form: its description (inferred for a setting this client does not know). */
export interface SettingField {
  name: string;
  spec: SiteSettingSpec;
  /** False when the description was inferred from the value. */
  known: boolean;
  value: SettingValue;
}

/** What the inputs hold: booleans for switches, the typed text for everything else. */
export type SettingsDraft = Record<string, boolean | string>;

const ORDER = new Map(SITE_SETTING_SPECS.map((spec, index) => [spec.name, index]));

/** The fields of one group's values, described settings first (in their order), then the rest by name. */
export function settingFields(group: string, values: Record<string, SettingValue>): SettingField[] {
  return Object.entries(values)
    .map(([name, value]): SettingField => {
      const spec = settingSpec(name);
      if (spec) return { name, spec, known: true, value };
      const type = typeof value === 'boolean' ? 'bool' : typeof value === 'number' ? 'int' : 'string';
      return { name, spec: { name, group, type }, known: false, value };
    })
    .sort((a, b) => (ORDER.get(a.name) ?? Infinity) - (ORDER.get(b.name) ?? Infinity) || a.name.localeCompare(b.name));
}

/** The draft of stored values. */
export function draftOf(fields: SettingField[]): SettingsDraft {
  return Object.fromEntries(fields.map((field) => [field.name, typeof field.value === 'boolean' ? field.value : String(field.value)]));
}

/** A problem of a field: a value that does not fit, or a pair that may not both be on. */
export type FieldProblem = SettingProblem | { kind: 'exclusive' };

/**
 * The partial map to send: the fields whose draft differs from the stored value, coerced to their
 * type; and the problems by field name (nothing may be sent while there is one).
 */
export function settingChanges(fields: SettingField[], draft: SettingsDraft): { patch: Record<string, SettingValue>; problems: Record<string, FieldProblem> } {
  const patch: Record<string, SettingValue> = {};
  const problems: Record<string, FieldProblem> = {};
  for (const field of fields) {
    if (field.spec.readOnly || !(field.name in draft)) continue;
    const result = coerceSetting(field.spec, draft[field.name]);
    if ('problem' in result) {
      problems[field.name] = result.problem;
      continue;
    }
    if (result.value !== field.value) patch[field.name] = result.value;
  }
  const effective = (name: string) => {
    const field = fields.find((candidate) => candidate.name === name);
    return name in patch ? patch[name] : field?.value;
  };
  for (const pair of EXCLUSIVE_SETTINGS) {
    if (pair.every((name) => effective(name) === true)) for (const name of pair) if (name in patch) problems[name] = { kind: 'exclusive' };
  }
  return { patch, problems };
}
