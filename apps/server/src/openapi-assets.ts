import type { OpenApiPart } from './openapi-kit.ts'

/** The OpenAPI description of files, folders and presets of an organisation. */
export const ASSET_API: OpenApiPart = {
  tags: [],
  paths: {},
  schemas: {},
}
