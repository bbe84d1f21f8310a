import { Link } from 'react-router'
import { PageHero } from '../components/page-hero.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/privacy-policy.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Privacy policy',
    description: 'What Tessera collects, why, how long it is kept and the choices you have.',
  })

export default function PrivacyPolicy() {
  return (
    <>
      <PageHero
        flush
        eyebrow="Legal"
        title="Privacy policy"
        lead="Last updated 21 November 2026."
      />
      <section className="section is-flush-top">
        <div className="container prose">
          <p>
            This policy explains what information the operator of this Tessera installation collects
            when you use the website, the console and the API, and what is done with it. Tessera is
            self-hosted software: the operator of this site is responsible for the data it holds.
          </p>
          <h2>What we collect</h2>
          <ul>
            <li>
              <strong>Account data</strong>: your name, email address and a hash of your password
              (never the password itself).
            </li>
            <li>
              <strong>Session data</strong>: a random session cookie (<code>bg.session</code>) that
              keeps you signed in for up to 30 days. The server stores only its hash.
            </li>
            <li>
              <strong>Your files</strong>: the images you upload and the results derived from them,
              kept in the storage of your organisation.
            </li>
            <li>
              <strong>Usage data</strong>: request logs (time, path, status) used to run and secure
              the service, and an anonymous id in your browser's storage that counts visits without
              identifying you.
            </li>
            <li>
              <strong>Messages</strong> you send through the contact form.
            </li>
          </ul>
          <h2>How we use it</h2>
          <p>
            To provide the service, keep it secure, answer your messages and bill paid plans. We do
            not sell personal data. Analytics, chat support and error reporting run only when the
            operator configures them, and then only for those purposes.
          </p>
          <h2>How long we keep it</h2>
          <p>
            Account data is kept while your account exists. Files are kept until you delete them or
            your organisation is closed. Logs are kept for at most 30 days.
          </p>
          <h2>Your rights</h2>
          <p>
            You can ask for a copy of your data, its correction or its deletion at any time through
            the <Link to="/contactus?topic=support">contact page</Link>.
          </p>
          <h2>Cookies</h2>
          <p>
            The only cookie the site needs is the session cookie. It is HttpOnly, sent only to this
            site, and removed when you log out.
          </p>
        </div>
      </section>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
