// @tessera/media: what the engine cannot read or write with sharp alone (video, PDF, HEIC/HEIF).
export {}
