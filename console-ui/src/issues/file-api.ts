import type { FileUpload, FileUploadedView } from '../../../contracts/file';
import type { RestClient } from '../api/rest';

/** The file calls of the console (REST only; shapes from contracts/file.ts). */
export function fileApi(rest: RestClient) {
  return {
    /** Stores a file for a message to attach by its identifier (POST /console/v1/file/upload). */
    upload: (body: FileUpload) => rest.request<FileUploadedView>('/console/v1/file/upload', { method: 'POST', body }),
  };
}

/** A file the user chose as a data URL (`data:<type>;base64,...`), as the upload takes it. */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}
