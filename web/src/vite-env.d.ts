/// <reference types="vite/client" />

// hls.js ships no types for its light build (no EME, subtitles or alternate audio: cameras need
// none of them); its API is the full build's.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
