// Tessera's own plugins (extensions of the Pixelbin language), in the research catalogue's shape:
// the generator (generate-catalogue.ts) adds them after plugins.json's, so the parser, engine,
// docs and playground learn them like any other operation. docs/delivery.md documents each.
import type { SourceCatalogue } from './catalogue-build.ts'

/** Plugins that Pixelbin does not have. */
export const EXTENSION_PLUGINS: SourceCatalogue['plugins'] = [
  {
    identifier: 'pdf',
    sdkModule: 'PdfPlugin',
    description: 'PDF documents as images (a Tessera extension)',
    operations: [
      {
        method: 'page',
        displayName: 'PDF page',
        description:
          'Draws one page of a PDF at a stated resolution; the chain then transforms it like an image (a Tessera extension).',
        params: [
          {
            identifier: 'n',
            sdkName: 'page',
            title: 'Page',
            type: 'integer',
            default: 1,
            required: false,
            docs: { min: 1, max: 100000 },
          },
          {
            identifier: 'd',
            sdkName: 'dpi',
            title: 'Dots per inch',
            type: 'integer',
            default: 150,
            required: false,
            docs: { min: 18, max: 600 },
          },
        ],
      },
    ],
  },
]
