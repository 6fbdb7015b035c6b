import '@testing-library/jest-dom';

// The server tests hash at bcrypt's lowest cost (server/passwords.ts bcryptCost): 2 ms a hash instead
// of 72, over about 500 hashes and checks a run. server/passwords.test.ts checks the default cost.
process.env.BCRYPT_COST ??= '4';
