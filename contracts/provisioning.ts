import * as yup from 'yup';

/**
 * Certificate provisioning (api.md sections 3, 5 and 7; spec README "Certificates"): a shipped
 * gateway sends a PKCS#10 CSR and its one-time provisioning token, and gets a client
 * certificate signed by the platform CA.
 */

/** The path a gateway posts its CSR to. */
export const provisionCertificatePath = '/v1/device/provision/cert';

/** The subject organization (O) every device CSR must carry. */
export const deviceSubjectOrganization = 'device';

/** A device identifier, the CSR's organizational unit (OU): api.md section 5. */
export const deviceIdentifierPattern = /^[a-z0-9-]{1,100}$/;

/** Longest CSR (PEM) and token accepted: a P-256 CSR is under 1 KiB. */
export const provisioningLimits = { csrLength: 16_384, tokenLength: 256 } as const;

/**
 * A trimmed string and nothing else: yup casts a number to its digits, which would make
 * `token: 123` a wrong token (401) instead of a wrong body (400). Anything but a string is
 * given back as sent, so its type is checked (and never reaches a string method).
 */
function text(field: string, maxLength: number) {
  return yup
    .string()
    .transform((_value: unknown, original: unknown) => (typeof original === 'string' ? original.trim() : original))
    .min(1)
    .max(maxLength)
    .typeError(`${field} must be a string`);
}

/** POST /v1/device/provision/cert. */
export const provisionCertificateBodySchema = yup
  .object({
    csr: text('csr', provisioningLimits.csrLength).required(),
    token: text('token', provisioningLimits.tokenLength).required(),
  })
  .exact();

export type ProvisionCertificateBody = yup.InferType<typeof provisionCertificateBodySchema>;

/** 201: the device certificate, and the CA certificate the gateway pins for the hub. */
export const provisionCertificateResponseSchema = yup
  .object({
    cert: yup.string().required().meta({ description: 'The device certificate, PEM: subject CN=<ou>, OU=<ou>, O=device; client authentication; 10 years.' }),
    caCertificate: yup.string().required().meta({ description: 'The platform CA certificate, PEM, that signed it.' }),
  })
  .exact();

export type ProvisionCertificateResponse = yup.InferType<typeof provisionCertificateResponseSchema>;
