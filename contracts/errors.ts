/**
 * The error catalogue: every key Gridport answers with, once, with its HTTP status and a
 * user-facing message. Sources: console.md section 8, api.md section 8, device-model.md
 * section 8. Statuses the spec leaves open are chosen here and documented in docs/errors.md.
 */
export const errorCatalogue = {
  // Global errors (console.md section 8)
  payload_not_readable: { status: 400, message: 'The request body could not be read.' },
  payload_not_json: { status: 400, message: 'The request body is not valid JSON.' },
  payload_invalid: { status: 400, message: 'The request body is invalid.' },
  query_invalid: { status: 400, message: 'The query string is invalid.' },
  params_invalid: { status: 400, message: 'The path parameters are invalid.' },
  unauthorized: { status: 401, message: 'Authentication is required.' },
  too_many_failed_attempts: { status: 401, message: 'Too many failed attempts; try again later.' },
  invalid_ip: { status: 401, message: 'Requests from this address are not allowed for this key.' },
  jwt_expired: { status: 401, message: 'The session has expired.' },
  forbidden: { status: 403, message: 'You may not do this.' },
  not_found: { status: 404, message: 'Not found.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  too_many_requests: { status: 429, message: 'Too many requests.' },
  rate_limit_exceeded_for_dangerous_actions: {
    status: 429,
    message: 'The allowance for dangerous actions in the last 24 hours is used up.',
  },
  client_closed_request: { status: 499, message: 'The client closed the request.' },
  internal_server_error: { status: 500, message: 'Something went wrong on our side.' },

  // Pagination
  invalid_offset: { status: 400, message: 'The pagination offset is invalid.' },

  // Billing charges
  is_invoiced: { status: 409, message: 'The charge is already invoiced.' },
  not_manual: { status: 409, message: 'Only a manual charge may be removed.' },

  // Billing legal entities
  moneybird_contact_id_invalid: { status: 400, message: 'The accounting contact id is invalid.' },
  country_invalid: { status: 400, message: 'The country must be an ISO 3166-1 alpha-2 code.' },
  tax_number_required_for_eu_countries: {
    status: 400,
    message: 'A tax number is required for EU countries other than the Netherlands.',
  },
  is_in_use: { status: 409, message: 'The legal entity is still an organisation default.' },

  // Device groups and destinations
  not_empty: { status: 409, message: 'The device group is not empty.' },
  has_access: { status: 409, message: 'The API key already has access.' },
  already_configured: { status: 409, message: 'This is already configured.' },
  max_destinations_reached: { status: 400, message: 'At most 3 destinations per message type.' },

  // Devices
  no_valid_config: { status: 400, message: 'The device has no valid configuration.' },
  not_all_assets_have_identifier: { status: 400, message: 'Not all assets have an identifier.' },
  asset_identifiers_are_not_unique: { status: 400, message: 'Asset identifiers are not unique.' },
  in_production: { status: 403, message: 'This property cannot change while the device is in production.' },
  user_has_no_access: { status: 400, message: 'A contact has no access to the device.' },
  billing_legal_entity_must_be_null: {
    status: 400,
    message: 'The billing legal entity must be empty when the device has no organisation.',
  },
  invalid_config: { status: 400, message: 'The configuration is invalid.' },
  cancel_stream: { status: 499, message: 'The stream was cancelled.' },

  // Firmware
  no_balena_credentials: { status: 503, message: 'No Balena credentials are configured.' },
  no_balena_uuid: { status: 400, message: 'The device has no Balena uuid.' },
  balena_unavailable: { status: 503, message: 'Balena is unavailable.' },
  semver_not_found: { status: 404, message: 'No release with this version exists.' },
  no_releases_found: { status: 404, message: 'No releases were found.' },
  invalid_version_format: { status: 400, message: 'The version is not a valid semantic version.' },

  // Files
  no_temp_file_found: { status: 404, message: 'The uploaded file was not found.' },
  too_many_files: { status: 400, message: 'Too many files.' },
  only_internal_message_updates: { status: 403, message: 'Only internal messages can be edited.' },
  filetype_not_allowed: { status: 400, message: 'This file type is not allowed.' },
  file_invalid: { status: 400, message: 'The file is invalid.' },
  file_too_large: { status: 413, message: 'The file is too large.' },

  // Issues
  already_resolved: { status: 409, message: 'The issue is already resolved.' },
  already_open: { status: 409, message: 'The issue is already open.' },
  internal_issue_external_assignee: {
    status: 400,
    message: 'An internal issue cannot be assigned to a customer.',
  },

  // Message destinations
  changing_type: { status: 400, message: 'The type of a message destination cannot change.' },
  destination_address_not_allowed: {
    status: 400,
    message: 'The destination resolves to a loopback, private, link-local or metadata address, which forwarding may not reach.',
  },

  // SAML
  url_encoded_body_invalid: { status: 400, message: 'The URL-encoded body is invalid.' },
  saml2_redirect_validation_failed: { status: 401, message: 'The SAML redirect could not be validated.' },
  saml2_post_validation_failed: { status: 401, message: 'The SAML response could not be validated.' },
  saml2_request_validation_failed: { status: 401, message: 'The SAML request could not be validated.' },
  saml2_data_missing: { status: 400, message: 'The SAML data is missing.' },
  saml2_profile_is_missing: { status: 401, message: 'The SAML profile is missing.' },

  // Users
  has_invite: { status: 409, message: 'This email already has an open invite.' },
  user_exists: { status: 409, message: 'A user with this email already exists.' },
  no_team_members: { status: 400, message: 'The organisation has no team members.' },
  forbidden_organization: { status: 403, message: 'You may not act on this organisation.' },

  // Login and codes
  '2fa_code_required': { status: 401, message: 'A two-factor code is required.' },
  '2fa_code_invalid': { status: 401, message: 'The two-factor code is invalid.' },
  invalid_credentials: { status: 401, message: 'The email or password is wrong.' },
  invalid_code: { status: 400, message: 'The code is invalid.' },
  secret_expired: { status: 410, message: 'The secret has expired.' },

  // Password reset
  rate_limit_exceeded_for_password_reset: { status: 429, message: 'Too many password resets; try again later.' },
  password_reset_expired: { status: 410, message: 'The password reset has expired.' },

  // Public and device-facing API (api.md section 8)
  contact_email_already_exists: { status: 400, message: 'A contact with this email already exists.' },
  upgrade_failed: { status: 400, message: 'The server did not receive a websocket upgrade request.' },
  dangerous_action_requires_user_id: { status: 400, message: 'A user id is needed for this dangerous action.' },
  device_tunnel_timeout: { status: 400, message: 'The device did not set up a tunnel in time.' },
  public_key_not_defined: { status: 400, message: 'The API key has no public key.' },
  unknown_identifier: { status: 400, message: 'An asset or controller identifier is unknown.' },
  start_at_too_far_in_future: {
    status: 400,
    message: 'A command starts more than 2147483647 ms (about 24 days) ahead.',
  },
  end_at_too_far_in_the_past: { status: 400, message: 'A command ends more than 24 hours in the past.' },
  interval_too_long: { status: 400, message: 'A command lasts longer than 2147483647 ms.' },
  invalid_csr_subject_o: { status: 401, message: 'The CSR subject organization must be "device".' },
  csr_subject_ou_invalid: {
    status: 401,
    message: 'The CSR organizational unit must be 1 to 100 lowercase letters, digits and hyphens.',
  },
  csr_subject_ou_already_exists: { status: 401, message: 'The CSR organizational unit already exists.' },
  service_unavailable: { status: 503, message: 'A service Gridport depends on is unavailable.' },
  disk_full: { status: 507, message: "The server's disk is full: nothing can be stored until space is freed." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorKey = keyof typeof errorCatalogue;

export const errorKeys = Object.keys(errorCatalogue) as ErrorKey[];

/** One validation issue: where in the input, and what is wrong there. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** The body of every error answer, over HTTP and in GraphQL's extensions. */
export interface ErrorBody {
  key: ErrorKey;
  details?: unknown;
}

export function isErrorKey(value: unknown): value is ErrorKey {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(errorCatalogue, value);
}

/**
 * The one error Gridport code throws on purpose: a catalogue key and optional details.
 * Each transport turns it into its own shape (HTTP body, GraphQL extensions, websocket close).
 */
export class GridportError extends Error {
  readonly key: ErrorKey;
  readonly details: unknown;

  constructor(key: ErrorKey, details?: unknown, message?: string) {
    super(message ?? errorCatalogue[key].message);
    this.name = 'GridportError';
    this.key = key;
    this.details = details;
  }

  get status(): number {
    return errorCatalogue[this.key].status;
  }

  toBody(): ErrorBody {
    return this.details === undefined ? { key: this.key } : { key: this.key, details: this.details };
  }
}
