/** Where the application server serves an uploaded image (its id is the file name in the media folder). */
export const MEDIA_PATH = '/media';

/** The address of an uploaded image, for a page's `src` and the upload's answer. */
export const mediaUrl = (id: string) => `${MEDIA_PATH}/${id}`;
