import { index, layout, prefix, type RouteConfig, route } from '@react-router/dev/routes'

// SPEC §2.1: every route is an exact match unless stated; any other path answers the not-found
// page with status 404 (issue 24: no redirect home).
export default [
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('robots.txt', 'routes/robots.ts'),
  layout('routes/site-layout.tsx', [
    index('routes/home.tsx'),
    route('contactus', 'routes/contactus.tsx'),
    route('products', 'routes/products.tsx'),
    route('about-us', 'routes/about-us.tsx'),
    route('features', 'routes/features.tsx'),
    // Sub-routes of a use case render the same page (SPEC: sub-routes not shown).
    route('usecase/:caseId/*', 'routes/usecase.tsx'),
    route('api', 'routes/api.tsx'),
    route('api/plugin', 'routes/api-plugin.tsx'),
    route('api/:plugin', 'routes/api-plugin-alias.tsx'),
    route('faqs', 'routes/faqs.tsx'),
    route('ai-tools', 'routes/ai-tools.tsx'),
    route('ai-tools/:slug', 'routes/ai-tool.tsx'),
    // The same page under its second address (SPEC §2.1: both are dynamic app pages).
    route('apps/:slug', 'routes/ai-tool.tsx', { id: 'routes/app' }),
    route('tools', 'routes/tools.tsx'),
    route('privacy-policy', 'routes/privacy-policy.tsx'),
    route('terms-of-use', 'routes/terms-of-use.tsx'),
    route('pricing', 'routes/pricing.tsx'),
    route('page-not-found', 'routes/page-not-found.tsx'),
    route('playground', 'routes/playground.tsx'),
    // The documentation site (its address is WEB_DOCS_URL when set) and the predictions.
    route('docs', 'routes/docs.tsx', { id: 'routes/docs-home' }),
    route('docs/*', 'routes/docs.tsx'),
    route('predictions', 'routes/predictions.tsx'),
    route('predictions/:id', 'routes/prediction.tsx'),
    route('*', 'routes/not-found.tsx'),
  ]),
  ...prefix('console', [
    layout('routes/console/layout.tsx', [
      // Signed-in pages share the organisation, its navigation and the header's switcher.
      layout('routes/console/app-layout.tsx', [
        index('routes/console/home.tsx'),
        route('editor', 'routes/console/editor.tsx'),
        route('editor/upload', 'routes/console/upload.tsx'),
        route('editor/url', 'routes/console/upload-url.tsx'),
        ...prefix('organization/:orgId', [
          route('presets', 'routes/console/presets.tsx'),
          route('billing', 'routes/console/billing-index.ts'),
          route('billing/plans/subscription', 'routes/console/billing.tsx', {
            id: 'routes/console/billing-subscription',
          }),
          route('billing/plans/topup', 'routes/console/billing.tsx', {
            id: 'routes/console/billing-topup',
          }),
          route('settings', 'routes/console/settings-index.ts'),
          route('settings/organization', 'routes/console/settings-organization.tsx'),
          route('settings/security', 'routes/console/settings-security.tsx'),
          route('settings/members', 'routes/console/settings-members.tsx'),
          route('settings/apps', 'routes/console/settings-apps.tsx'),
          route('settings/account', 'routes/console/settings-account.tsx'),
          route('settings/webhooks', 'routes/console/settings-webhooks.tsx'),
          route('settings/domains', 'routes/console/settings-domains.tsx'),
          route('activity', 'routes/console/activity.tsx'),
          // Inside the console's frame and menu, like every page of an organisation.
          route('playground', 'routes/playground-console.tsx'),
        ]),
      ]),
      route('organization/:orgId', 'routes/console/org-redirect.ts', {
        id: 'routes/console/org-home',
      }),
      route('organization/:orgId/editor/*', 'routes/console/org-redirect.ts', {
        id: 'routes/console/org-editor',
      }),
      route('invitations/accept', 'routes/console/invitation-accept.tsx'),
      route('auth/login', 'routes/console/login.tsx'),
      route('auth/signup', 'routes/console/signup.tsx'),
      route('auth/forgot-password', 'routes/console/forgot-password.tsx'),
      route('auth/reset-password', 'routes/console/reset-password.tsx'),
      route('auth/verify-email', 'routes/console/verify-email.tsx'),
      route('outbox', 'routes/console/outbox.tsx'),
      route('choose-org', 'routes/console/choose-org.tsx'),
      route('*', 'routes/console/not-found.tsx'),
    ]),
  ]),
] satisfies RouteConfig
