// The captcha widget of the visitor calls (lib/integrations/captcha.ts): rendered where a page
// asks for it, only when a captcha site key is configured. `token()` gives a one-use token for
// the next upload or AI run (undefined when the captcha is off).
import { useCallback, useEffect, useRef, useState } from 'react'
import { useConfig } from '../lib/app-context.tsx'
import { APP_EVENTS, trackAppEvent } from '../lib/app-events.ts'
import { createTokenQueue, type TurnstileApi } from '../lib/integrations/captcha.ts'
import { loadScript } from '../lib/integrations/script-loader.ts'

export interface Captcha {
  enabled: boolean
  /** A token for one guarded call, or undefined when the captcha is off. */
  token: () => Promise<string | undefined>
  /** The widget's place in the page (nothing when the captcha is off). */
  widget: React.ReactNode
}

export function useCaptcha(where: string): Captcha {
  const config = useConfig()
  const enabled = config.captchaSiteKey !== ''
  const container = useRef<HTMLDivElement | null>(null)
  const widgetId = useRef<string | undefined>(undefined)
  const api = useRef<TurnstileApi | undefined>(undefined)
  const [problem, setProblem] = useState<string | null>(null)
  const queue = useRef(
    createTokenQueue(() => {
      if (api.current !== undefined && widgetId.current !== undefined)
        api.current.reset(widgetId.current)
    }),
  )

  useEffect(() => {
    if (!enabled) return
    let live = true
    const failed = (message: string) => {
      trackAppEvent(APP_EVENTS.captchaFailed, { where })
      setProblem(message)
      queue.current.fail(message)
    }
    loadScript(config.scripts.captcha).then(
      () => {
        const turnstile = (window as unknown as { turnstile?: TurnstileApi }).turnstile
        if (!live || container.current === null) return
        if (turnstile === undefined) {
          failed('The captcha did not start; reload the page to try again.')
          return
        }
        api.current = turnstile
        widgetId.current = turnstile.render(container.current, {
          sitekey: config.captchaSiteKey,
          // Turnstile's actions are at most 32 letters, digits, '-' or '_'.
          ...(/^[\w-]{1,32}$/.test(where) ? { action: where } : {}),
          size: 'flexible',
          callback: (token) => {
            setProblem(null)
            queue.current.put(token)
          },
          'error-callback': () => failed('The captcha could not be passed; try it again.'),
          'expired-callback': () => queue.current.drop(),
        })
      },
      (error: unknown) => {
        console.error(error)
        if (live) failed('The captcha could not load, so uploads and AI runs are off here.')
      },
    )
    return () => {
      live = false
      if (api.current !== undefined && widgetId.current !== undefined) {
        api.current.remove?.(widgetId.current)
      }
      widgetId.current = undefined
    }
  }, [enabled, config.scripts.captcha, config.captchaSiteKey, where])

  const token = useCallback(async () => (enabled ? queue.current.take() : undefined), [enabled])

  const widget = enabled ? (
    <div className="captcha" data-testid="captcha">
      <div ref={container} />
      {problem === null ? null : (
        <p className="tool-alert" role="alert" data-testid="captcha-problem">
          {problem}
        </p>
      )}
    </div>
  ) : null

  return { enabled, token, widget }
}
