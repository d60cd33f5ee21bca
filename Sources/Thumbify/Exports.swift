// `import Thumbify` is the whole library: the pipeline here and the public API of every layer below
// it (docs/architecture.md).
@_exported import ThumbifyExtracting
@_exported import ThumbifyFetching
@_exported import ThumbifyImaging
@_exported import ThumbifyRendering
@_exported import ThumbifyStore
@_exported import ThumbifySystem
