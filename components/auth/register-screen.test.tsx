import type { PublicSettings } from '@/lib/contract/types';
import { signupMethods } from './register-screen';

const base: PublicSettings = {
  passwordDisableSignup: false,
  emailEnable: true,
  emailDisableSignup: false,
  emailWhitelistEnabled: false,
  emailWhitelist: [],
  oauth2DisableSignup: false,
  guestEnable: true,
  p2pZone: 'hk',
};

describe('signupMethods (docs/reference-client.md §1.3)', () => {
  it('offers password, email and OAuth2 in that order when all are allowed', () => {
    expect(signupMethods(base)).toEqual(['password', 'email', 'oauth']);
  });

  it('leaves out each method its switch turns off', () => {
    expect(signupMethods({ ...base, passwordDisableSignup: true })).toEqual(['email', 'oauth']);
    expect(signupMethods({ ...base, emailEnable: false })).toEqual(['password', 'oauth']);
    expect(signupMethods({ ...base, emailDisableSignup: true })).toEqual(['password', 'oauth']);
    expect(signupMethods({ ...base, oauth2DisableSignup: true })).toEqual(['password', 'email']);
  });

  it('offers nothing on a v0.9.11 default server with email and OAuth2 off', () => {
    expect(signupMethods({ ...base, passwordDisableSignup: true, emailEnable: false, oauth2DisableSignup: true })).toEqual([]);
  });
});
