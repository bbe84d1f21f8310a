import { createContext } from 'react-router'
import type { FailureLog } from './api.ts'
import type { ContactMessage, ContactSaved } from './contact.ts'
import type { RuntimeConfig } from './runtime-config.ts'

/** What the server hands every loader and action. */
export interface WebContext {
  config: RuntimeConfig
  /**
   * Answers a request to this origin's API without a network hop (the server's own router).
   * Calls to an API on another host use the global `fetch`.
   */
  localFetch: (request: Request) => Promise<Response>
  /**
   * Keeps a contact-form message on the server, or refuses it (captcha, the address's rate
   * limit); `captchaToken` is the widget's token when the captcha is on.
   */
  saveContact: (
    message: ContactMessage & { receivedAt: string },
    captchaToken: string | undefined,
  ) => Promise<ContactSaved>
  /** Writes a loader's failure to the server's log, under the visitor's request id. */
  log: FailureLog
}

// Exported through entry.server.tsx: the server must set the very key the built routes read.
export const webContext = createContext<WebContext>()
