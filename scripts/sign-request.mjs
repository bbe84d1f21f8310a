// Prints curl header arguments that sign a panel request (docs/api.md, "Request signing"):
//   curl … $(npx node scripts/sign-request.mjs METHOD URL [BODY]) URL
// The key is PANEL_SIGNING_KEY, or the server's default when it is not set.
import { signRequest } from '@tessera/url'

const [method, url, body] = process.argv.slice(2)
if (method === undefined || url === undefined) {
  console.error('usage: node scripts/sign-request.mjs METHOD URL [BODY]')
  process.exit(2)
}
const key = process.env.PANEL_SIGNING_KEY ?? 'tessera-panel-signing-key-v1'
const headers = await signRequest({ method, url, body }, key)
console.log(
  Object.entries(headers)
    .map(([name, value]) => `-H ${name}:${value}`)
    .join(' '),
)
