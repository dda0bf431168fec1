import * as yup from 'yup';
import type { Right } from './rights';

const megabyte = 1024 * 1024;

/**
 * How much one upload may hold, by the uploader's rights (console.md sections 6 and 9): the
 * largest limit among the rights held; customers (and staff with no limit of their own) 0.
 */
export const uploadLimits = [
  { right: 'gridport.admin', bytes: 100 * megabyte },
  { right: 'gridport.ops', bytes: 50 * megabyte },
  { right: 'gridport.developer', bytes: 10 * megabyte },
] as const satisfies readonly { right: Right; bytes: number }[];

/** The largest file anyone may upload. */
export const largestUploadBytes = Math.max(...uploadLimits.map((limit) => limit.bytes));

export const fileLimits = {
  /** Longest file name (console.md section 5). */
  nameLength: 255,
  /** Most files on one issue message (spec README, "Operations"; too_many_files). */
  filesPerMessage: 10,
  /**
   * The upload route's body limit: the largest file in base64 (4 bytes for every 3) with room
   * for the JSON around it and its name. Every other route keeps limits.payloadBytes (25 MB).
   */
  uploadBodyBytes: Math.ceil(largestUploadBytes / 3) * 4 + 64 * 1024,
  /** How long an upload that no message takes is kept, in hours; then it is removed. */
  temporaryUploadHours: 24,
} as const;

/** The bytes `rights` may upload at once; 0 when none of them allows uploads. */
export function uploadLimitBytes(rights: readonly Right[]): number {
  return Math.max(0, ...uploadLimits.filter((limit) => rights.includes(limit.right)).map((limit) => limit.bytes));
}

/**
 * The types a file may have (spec README, "Operations": images, PDF, CSV, plain text, JSON).
 * SVG is left out on purpose: it is an image that can carry script.
 */
export const allowedFileTypes = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/csv',
  'text/plain',
  'application/json',
] as const;
export type AllowedFileType = (typeof allowedFileTypes)[number];

/** POST /console/v1/file/upload: the file as a data URL (`data:<type>;base64,<bytes>`) and its name. */
export const fileUploadSchema = yup
  .object({
    dataUrl: yup.string().required(),
    name: yup.string().trim().min(1).max(fileLimits.nameLength).required(),
  })
  .exact();
export type FileUpload = yup.InferType<typeof fileUploadSchema>;

/** GET /console/v1/file/{fileIdentifier}: a uuid (anything else is not_found). */
export const fileIdentifierParams = yup.object({ fileIdentifier: yup.string().max(64).required() }).exact();

/** What an upload answers: where to read the file, and the identifier a message attaches it by. */
export interface FileUploadedView {
  url: string;
  fileIdentifier: string;
}

export const fileUploadedSchema = yup.object({ url: yup.string().required(), fileIdentifier: yup.string().required() });

/** A file as a message shows it. */
export interface FileView {
  fileIdentifier: string;
  name: string;
  contentType: string;
  size: number;
  url: string;
}

/** The path a file is read from. */
export function filePath(fileIdentifier: string): string {
  return `/console/v1/file/${fileIdentifier}`;
}
