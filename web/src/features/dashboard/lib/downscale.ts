import { MAP_IMAGE_DISPLAY_PIXELS } from '@kilowatch/contract';

/**
 * The size a layout image is shown at most: the same shape, at most MAP_IMAGE_DISPLAY_PIXELS in
 * all; null when it is within already.
 */
export function displaySize(width: number, height: number): { width: number; height: number } | null {
  if (width * height <= MAP_IMAGE_DISPLAY_PIXELS) return null;
  const scale = Math.sqrt(MAP_IMAGE_DISPLAY_PIXELS / (width * height));
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/**
 * A layout image shrunk to its display size before upload (same type), so every wall screen that
 * shows the map holds no more than it can show. The file as it is when it is small enough, or when
 * the browser cannot decode it (the server then says why it refuses it).
 */
export async function downscaleForDisplay(file: File): Promise<File> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return file;
  }
  try {
    const size = displaySize(bitmap.width, bitmap.height);
    if (!size) return file;
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) return file;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, file.type, 0.9));
    return blob ? new File([blob], file.name, { type: file.type }) : file;
  } finally {
    bitmap.close();
  }
}
