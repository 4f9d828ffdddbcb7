/** Where the application server serves an uploaded image (its id is the file name in the media folder). */
export const MEDIA_PATH = '/media';

/** The address of an uploaded image, for a page's `src` and the upload's answer. */
export const mediaUrl = (id: string) => `${MEDIA_PATH}/${id}`;

// ---------- Radar images (issue 19): a kind of upload of its own ----------
/** Where the operator app uploads a map's radar image (a signed-in browser, as the other images). */
export const RADAR_MEDIA_PATH = '/api/panel/media/radar';
/** The largest radar image: the game's overviews are 1024x1024 PNGs of 1 to 3 MiB. */
export const RADAR_IMAGE_MAX_BYTES = 4 * 1024 * 1024;
/** A radar image is square (the calibration is for a square), and at least this many pixels a side. */
export const RADAR_IMAGE_MIN_SIDE = 256;
export const RADAR_IMAGE_MAX_SIDE = 4096;
