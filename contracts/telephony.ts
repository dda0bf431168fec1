import * as yup from 'yup';

/** The call's identifier at Twilio: CA and 32 hexadecimal digits. */
const callSid = yup
  .string()
  .matches(/^CA[0-9a-fA-F]{32}$/, '${path} must be a Twilio call SID (CA and 32 hexadecimal digits)')
  .required();
const phone = yup.string().max(64).optional();
const text = yup.string().max(255).optional();

/**
 * The parameters Twilio posts to /v1/twilio, /finish and /status (application/x-www-form-urlencoded,
 * Twilio's voice webhook and status callback). Twilio sends more than these; the rest is ignored.
 * A body without them, or with one that does not fit, is url_encoded_body_invalid.
 */
export const twilioCallSchema = yup.object({
  CallSid: callSid,
  AccountSid: yup.string().max(64).optional(),
  From: phone,
  To: phone,
  CallStatus: text,
  Direction: text,
  /** On /finish after a <Dial>: completed, answered, busy, no-answer, failed or canceled. */
  DialCallStatus: text,
  DialCallDuration: text,
  /** On /finish after a <Record>, and on a recording's status callback. */
  RecordingUrl: yup.string().max(2048).url().optional(),
  RecordingDuration: text,
  CallDuration: text,
});
export type TwilioCall = yup.InferType<typeof twilioCallSchema>;

/** How long a dialed engineer's phone rings before the next one is tried, in seconds; the longest voicemail. */
export const telephonyLimits = {
  dialTimeoutSeconds: 25,
  voicemailMaxSeconds: 300,
} as const;
