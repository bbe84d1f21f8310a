// The Content-Security-Policy nonce of the response being rendered (set by entry.server.tsx);
// undefined in the browser, which never needs it after the server's HTML.
import { createContext } from 'react'

export const NonceContext = createContext<string | undefined>(undefined)
