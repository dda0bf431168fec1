import { generate } from 'otplib';
import { acceptedTwoFactorStep, newRecoveryCodes, newTwoFactorSecret, spendRecoveryCode, twoFactorKeyUri } from './two-factor';

describe('two-factor codes', () => {
  it('accept the current code once only', async () => {
    const secret = newTwoFactorSecret();
    const code = await generate({ secret });
    const step = await acceptedTwoFactorStep(secret, code, null);
    expect(step).toEqual(expect.any(Number));
    expect(await acceptedTwoFactorStep(secret, code, step)).toBeNull();
  });

  it('refuse a wrong code and anything but six digits', async () => {
    const secret = newTwoFactorSecret();
    const code = await generate({ secret });
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(await acceptedTwoFactorStep(secret, wrong, null)).toBeNull();
    expect(await acceptedTwoFactorStep(secret, `${code}0`, null)).toBeNull();
    expect(await acceptedTwoFactorStep(secret, 'abcdef', null)).toBeNull();
  });

  it('name the account in the key URI for authenticator apps', () => {
    expect(twoFactorKeyUri('ops@example.com', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')).toBe(
      'otpauth://totp/Gridport:ops%40example.com?secret=ABCDEFGHIJKLMNOPQRSTUVWXYZ234567&issuer=Gridport',
    );
  });
});

describe('recovery codes', () => {
  it('come ten at a time, kept as hashes, each usable once', () => {
    const { codes, hashes } = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(hashes.join()).not.toContain(codes[0]?.replace('-', '') ?? 'x');
    const left = spendRecoveryCode(hashes, (codes[3] ?? '').toUpperCase());
    expect(left).toHaveLength(9);
    expect(spendRecoveryCode(left ?? [], codes[3] ?? '')).toBeNull();
    expect(spendRecoveryCode(hashes, 'nope-nope')).toBeNull();
  });
});
