/**
 * The admin console's settings forms as data: fields in the described order with unknown settings
 * typed by their value, and the partial map sent on save with each field's problem.
 */
import { settingChanges, settingFields, draftOf } from './settings-form';

describe('settingFields', () => {
  it('orders described settings as described and puts unknown ones last, typed by their value', () => {
    const fields = settingFields('user', { zz_extra: 'x', user_max_room_count: 3, enable_guest: true, aa_flag: false, enable_password_signup: true });
    expect(fields.map((field) => [field.name, field.spec.type, field.known])).toEqual([
      ['enable_guest', 'bool', true],
      ['enable_password_signup', 'bool', true],
      ['user_max_room_count', 'int', true],
      ['aa_flag', 'bool', false],
      ['zz_extra', 'string', false],
    ]);
  });
});

describe('settingChanges', () => {
  const fields = settingFields('room', { room_ttl: 48, room_must_need_pwd: true, room_must_no_need_pwd: false, disable_create_room: false });
  const values = settingFields('email', { smtp_port: 587, smtp_protocol: 'TLS', email_signup_white_list: 'a.com,b.com' });

  it('sends only what changed, coerced to its type', () => {
    const draft = { ...draftOf(fields), room_ttl: ' 72 ', disable_create_room: true };
    expect(settingChanges(fields, draft)).toEqual({ patch: { room_ttl: 72, disable_create_room: true }, problems: {} });
    expect(settingChanges(fields, draftOf(fields))).toEqual({ patch: {}, problems: {} });
    const email = { ...draftOf(values), smtp_protocol: 'ssl', email_signup_white_list: 'a.com, b.com ,c.com' };
    expect(settingChanges(values, email).patch).toEqual({ smtp_protocol: 'SSL', email_signup_white_list: 'a.com,b.com,c.com' });
  });

  it('names the problem of each field that does not fit, and of a pair that may not both be on', () => {
    const draft = { ...draftOf(fields), room_ttl: '0', room_must_no_need_pwd: true };
    expect(settingChanges(fields, draft).problems).toEqual({
      room_ttl: { kind: 'range', min: 1, max: Number.MAX_SAFE_INTEGER },
      room_must_no_need_pwd: { kind: 'exclusive' },
    });
    expect(settingChanges(values, { ...draftOf(values), smtp_port: '5x', smtp_protocol: 'POP' }).problems).toEqual({
      smtp_port: { kind: 'int' },
      smtp_protocol: { kind: 'choice', choices: ['TLS', 'SSL', 'TCP'] },
    });
  });
});
