// The analytics events of the dynamic apps and the playground (SPEC §8), pushed to the tag
// manager's dataLayer. Without a container nothing reads them; the list stays bounded.

export const APP_EVENTS = {
  fileUpload: 'file upload',
  uploadSuccess: 'upload success',
  uploadFailed: 'upload failed',
  apiRequest: 'API request',
  signupTriggered: 'signup triggered',
  paymentTriggered: 'payment triggered',
  captchaFailed: 'captcha failed',
  dailyLimitExceeded: 'daily limit exceeded',
  transformationTriggered: 'transformation triggered',
  success: 'success',
  failed: 'failed',
  pollingSucceeded: 'polling succeeded',
  pollingFailed: 'polling failed',
} as const

export type AppEvent = (typeof APP_EVENTS)[keyof typeof APP_EVENTS]

/** Entries kept when no container drains the dataLayer (a page open for hours stays small). */
export const MAX_QUEUED_EVENTS = 500

export type EventSink = { push: (entry: Record<string, unknown>) => unknown; length: number }

/** The entry for one event: its name and what it is about (tool slug, operation, status). */
export function appEventEntry(
  name: AppEvent,
  details: Record<string, string | number | boolean | undefined> = {},
): Record<string, unknown> {
  const clean = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined))
  return { event: name, ...clean }
}

/** Pushes an event to `window.dataLayer` (made when absent, as the tag manager expects). */
export function trackAppEvent(
  name: AppEvent,
  details: Record<string, string | number | boolean | undefined> = {},
): void {
  if (typeof window === 'undefined') return
  const target = window as unknown as { dataLayer?: Record<string, unknown>[] }
  target.dataLayer ??= []
  if (target.dataLayer.length >= MAX_QUEUED_EVENTS) return
  target.dataLayer.push(appEventEntry(name, details))
}
