import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../server/config';
import { freshDir, problemsOf } from '../../../test-support/config';
import { defaultRelayState, safeRelayState } from './saml.service';

describe('the SAML relay state', () => {
  it('is honoured only as a path of this site', () => {
    expect(safeRelayState('/admin/devices/abc?tab=timeline')).toBe('/admin/devices/abc?tab=timeline');
    expect(safeRelayState('/')).toBe('/');
    for (const foreign of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'admin', '', '/admin\r\nSet-Cookie: x=1', undefined, 42]) {
      expect({ foreign, relayState: safeRelayState(foreign) }).toEqual({ foreign, relayState: defaultRelayState });
    }
  });
});

describe('SAML settings from the environment', () => {
  const certificate = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

  it('run the development identity provider by default, keeping its key in the data folder', () => {
    const cwd = freshDir();
    expect(loadConfig({}, cwd).saml).toEqual({
      entryPoint: null,
      idpCert: null,
      issuer: 'gridport',
      callbackUrl: null,
      devIdentityProvider: true,
      devIdentityProviderKeyFile: path.join(cwd, 'data', 'dev-identity-provider.json'),
    });
  });

  it('turn the development identity provider off in production unless asked, and whenever a provider is configured', () => {
    expect(loadConfig({ NODE_ENV: 'production' }, freshDir()).saml.devIdentityProvider).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', GRIDPORT_DEV_IDP: 'true' }, freshDir()).saml.devIdentityProvider).toBe(true);
    expect(loadConfig({ GRIDPORT_DEV_IDP: 'off' }, freshDir()).saml.devIdentityProvider).toBe(false);
    const configured = loadConfig(
      {
        SAML_ENTRY_POINT: 'https://idp.example.com/sso',
        SAML_IDP_CERT: certificate.replace(/\n/g, '\\n'),
        GRIDPORT_DEV_IDP: 'true',
        SAML_ISSUER: 'gridport-test',
      },
      freshDir(),
    ).saml;
    expect(configured).toMatchObject({ entryPoint: 'https://idp.example.com/sso', idpCert: certificate, issuer: 'gridport-test', devIdentityProvider: false });
  });

  it('read the certificate from a file', () => {
    const cwd = freshDir();
    writeFileSync(path.join(cwd, 'idp.pem'), certificate);
    expect(loadConfig({ SAML_ENTRY_POINT: 'https://idp.example.com/sso', SAML_IDP_CERT: 'idp.pem' }, cwd).saml.idpCert).toBe(certificate);
  });

  it('refuse a provider without a certificate, an unreadable certificate and URLs that are not URLs', () => {
    expect(problemsOf({ SAML_ENTRY_POINT: 'https://idp.example.com/sso' })).toEqual([
      "SAML_ENTRY_POINT is set, so SAML_IDP_CERT (the identity provider's signing certificate) is required",
    ]);
    expect(problemsOf({ SAML_IDP_CERT: 'missing.pem' })[0]).toMatch(/^SAML_IDP_CERT is neither a PEM certificate nor a readable file/);
    expect(problemsOf({ SAML_ENTRY_POINT: 'not a url', SAML_CALLBACK_URL: 'nope' })).toEqual([
      'SAML_ENTRY_POINT must be an http(s) URL',
      'SAML_CALLBACK_URL must be an http(s) URL',
    ]);
  });
});
