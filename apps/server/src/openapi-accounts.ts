import type { OpenApiPart } from './openapi-kit.ts'

/** The OpenAPI description of API tokens, members and invitations, Google one-tap. */
export const ACCOUNT_API: OpenApiPart = {
  tags: [],
  paths: {},
  schemas: {},
}
