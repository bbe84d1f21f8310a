import { PageHero } from '../components/page-hero.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/faqs.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'FAQs',
    description: 'Answers about transformations, credits, self-hosting, formats and AI tools.',
  })

const FAQS = [
  {
    q: 'What is Tessera?',
    a: 'A service that stores your images, transforms them on request and delivers the result. You describe the transformation in the image URL, and Tessera caches each result.',
  },
  {
    q: 'How many transformations can I chain?',
    a: 'Up to 15 operations per URL. A preset counts as the number of operations inside it.',
  },
  {
    q: 'Which formats are supported?',
    a: 'JPEG, PNG, WebP, AVIF, GIF and WebP animations (every frame kept), HEIC/HEIF, TIFF, BMP and SVG input, PDF documents (a page delivered as an image, pdf.page picks it), and videos (MP4, MOV, MKV, WebM, AVI, MPEG: resized, cropped, trimmed, a frame as a still, or converted to MP4, WebM or GIF; GIF animations to MP4 too); plain .txt files are stored and delivered as they are. With f_auto=true each browser receives AVIF or WebP when it accepts them.',
  },
  {
    q: 'What are credits?',
    a: 'Credits pay for AI work: each AI operation in a delivery URL and each prediction job spends one credit, once per result. A new organisation starts with the free plan’s credits; a subscription or a top-up adds more.',
  },
  {
    q: 'Can I run it on my own servers?',
    a: 'Yes. npm ci && npm start runs the website, API and delivery in one process with an embedded database. Point it at PostgreSQL and S3-compatible storage to scale out.',
  },
  {
    q: 'Why does an AI transformation answer 202 at first?',
    a: 'AI operations run as background jobs. The URL answers 202 while the job runs; retry and you get the image, served from cache from then on.',
  },
  {
    q: 'Can I stop others from using my image URLs?',
    a: 'Yes: sign delivery URLs with an expiry time. Unsigned or expired links are refused.',
  },
]

export default function Faqs() {
  return (
    <>
      <PageHero eyebrow="FAQs" title="Frequently asked questions" />
      <section className="section is-flush-top">
        <div className="container faq-list">
          {FAQS.map((faq) => (
            <details key={faq.q} className="faq">
              <summary>{faq.q}</summary>
              <p>{faq.a}</p>
            </details>
          ))}
        </div>
      </section>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
