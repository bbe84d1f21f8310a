// Buying on the billing page and coming back: the checkout is opened in this tab, the provider
// sends the buyer back with ?paymentId=…&status=…, and the payment is then read from the API
// (never taken from the query) and followed until it settles.
import { useCallback, useEffect, useState } from 'react'
import { type ConsoleApi, codeOf, type Payment, problemOf } from '../../../lib/console-api.ts'

const POLL_MS = 1500

export type Purchase = { kind: 'subscription'; planId: number } | { kind: 'topup'; addonId: number }

export function usePayment({
  api,
  paymentId,
  reload,
}: {
  api: ConsoleApi
  /** The payment named in the address, if any. */
  paymentId: string | null
  /** Reads the balance, plan, ledger and receipts again once a payment settles. */
  reload: () => Promise<unknown>
}) {
  const [buying, setBuying] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [payment, setPayment] = useState<Payment | null>(null)

  // The payment named in the address (the provider's way back, so a reload shows it again) is
  // polled while the provider has not told us yet (its webhook may come after the buyer).
  const follow = useCallback(
    async (id: string, signal: AbortSignal) => {
      for (let tries = 0; tries < 400 && !signal.aborted; tries++) {
        try {
          const current = await api.payment(id)
          setPayment(current)
          if (current.status !== 'pending') {
            await reload()
            return
          }
        } catch (reason) {
          setError(problemOf(reason))
          return
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
      }
    },
    [api, reload],
  )
  useEffect(() => {
    if (paymentId === null) return
    const controller = new AbortController()
    void follow(paymentId, controller.signal)
    return () => controller.abort()
  }, [paymentId, follow])

  // A page restored from the back-forward cache shows the moment it was left ("Opening the
  // checkout…"): load it afresh instead, so it reads the payment.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) window.location.reload()
    }
    window.addEventListener('pageshow', restored)
    return () => window.removeEventListener('pageshow', restored)
  }, [])

  const buy = async (body: Purchase) => {
    const id = body.kind === 'subscription' ? body.planId : body.addonId
    setBuying(id)
    setError(null)
    setPayment(null)
    // The provider sends the buyer back to this page (same tab) with paymentId and status; the
    // page then reads the payment and shows what happened.
    const back = new URL(window.location.href)
    back.searchParams.delete('paymentId')
    back.searchParams.delete('status')
    back.hash = ''
    try {
      let answer: Awaited<ReturnType<typeof api.checkout>>
      try {
        answer = await api.checkout({ ...body, returnUrl: back.toString() })
      } catch (reason) {
        // This page is not on the console address the server knows (WEB_CONSOLE_URL), so the
        // provider cannot come back to it: buy without, and follow the payment on return.
        if (codeOf(reason) !== 'invalid_return_url') throw reason
        answer = await api.checkout(body)
      }
      setPayment(answer.payment)
      // Should the buyer come back with the browser's Back button, this page follows the
      // payment from its address.
      const following = new URL(back)
      following.searchParams.set('paymentId', answer.paymentId)
      window.history.replaceState(window.history.state, '', following)
      window.location.assign(answer.checkoutUrl)
    } catch (reason) {
      setError(problemOf(reason))
      setBuying(null)
    }
  }

  return { buying, buy, payment, error, setError }
}
