import { defineConfig } from 'drizzle-kit'

// drizzle-kit resolves these paths from the working directory: run it from the repository root
// (`npx drizzle-kit generate --config apps/server/drizzle.config.ts`).
export default defineConfig({
  dialect: 'postgresql',
  schema: 'apps/server/src/db/schema.ts',
  out: 'apps/server/drizzle',
})
