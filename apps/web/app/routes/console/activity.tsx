// The activity log (/console/organization/{orgId}/activity, issue 24): who did what and when —
// uploads, deletes, moves, presets, settings, members, tokens, signing keys, domains, payments —
// newest first, filtered by member, kind, text and days, a page at a time. Owners read it.
import { type FormEvent, useState } from 'react'
import { managesSettings, useConsole } from '../../components/console/console-context.tsx'
import { formatDate } from '../../components/console/console-ui.tsx'
import { DataTable, NewerOlderPager } from '../../components/console/data-table.tsx'
import { emptyText, ListState, useLoad } from '../../components/console/load-state.tsx'
import { useTeamApi } from '../../components/console/use-team-api.ts'
import { Field, SelectField } from '../../components/form-field.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import '../../components/console/team.css'
import type { Member } from '../../lib/console-api.ts'
import { metaFor } from '../../lib/seo.ts'
import type { ActivityFilters, ActivityItem } from '../../lib/team-api.ts'
import type { Route } from './+types/activity.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Activity', noIndex: true })

const PAGE_SIZE = 25

/** What the kind filter offers: each family, then each kind. */
const FAMILIES: [string, string][] = [
  ['file', 'Files'],
  ['folder', 'Folders'],
  ['preset', 'Presets'],
  ['settings', 'Settings'],
  ['organisation', 'Organisation'],
  ['member', 'Members'],
  ['invitation', 'Invitations'],
  ['token', 'API tokens'],
  ['signing-key', 'Signing keys'],
  ['domain', 'Domains'],
  ['payment', 'Payments'],
]

/** A kind as people read it: `file.upload` → "File upload". */
export function kindText(kind: string): string {
  const text = kind.replace(/[.-]/g, ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** The details of an entry, short: `from: a.png · size: 120`. */
export function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ')
}

type Draft = Omit<ActivityFilters, 'pageNo' | 'pageSize'>

export default function Activity() {
  const { api, org } = useConsole()
  const team = useTeamApi()
  const isOwner = managesSettings(org.role)
  const [filters, setFilters] = useState<Draft>({})
  const [draft, setDraft] = useState<Draft>({})
  const [pageNo, setPageNo] = useState(1)
  const members = useLoad(
    () => (isOwner ? api.members() : Promise.resolve([] as Member[])),
    `members:${org._id}`,
  )
  const key = JSON.stringify({ org: org._id, filters, pageNo })
  const entries = useLoad(
    () =>
      isOwner
        ? team.activity({ ...filters, pageNo, pageSize: PAGE_SIZE })
        : Promise.resolve({
            items: [] as ActivityItem[],
            page: { current: 1, size: PAGE_SIZE, hasNext: false, itemTotal: 0 },
            kinds: [] as string[],
          }),
    key,
  )
  const apply = (event: FormEvent) => {
    event.preventDefault()
    const next: Draft = {}
    for (const [name, value] of Object.entries(draft) as [keyof Draft, string | undefined][]) {
      if (value !== undefined && value.trim() !== '') next[name] = value.trim()
    }
    setFilters(next)
    setPageNo(1)
  }
  const set = (name: keyof Draft) => (value: string) => setDraft({ ...draft, [name]: value })
  const kinds = entries.state.status === 'ready' ? entries.state.data.kinds : []
  return (
    <div className="console-panel is-wide" data-testid="activity-page">
      <p className="eyebrow">Organisation</p>
      <h1>Activity</h1>
      <p className="lead">Who did what in {org.name ?? org.cloudName}, newest first.</p>
      {!isOwner ? (
        <p className="form-alert">Only owners and admins can read the activity log.</p>
      ) : (
        <>
          <form className="activity-filters" onSubmit={apply} data-testid="activity-filters">
            <SelectField
              id="activity-member"
              label="Member"
              value={draft.member ?? ''}
              onChange={(e) => set('member')(e.target.value)}
              data-testid="activity-member"
            >
              <option value="">Everyone</option>
              {members.state.status === 'ready'
                ? members.state.data.map((member) => (
                    <option key={member._id} value={member._id}>
                      {member.email}
                    </option>
                  ))
                : null}
            </SelectField>
            <SelectField
              id="activity-kind"
              label="What"
              value={draft.kind ?? ''}
              onChange={(e) => set('kind')(e.target.value)}
              data-testid="activity-kind"
            >
              <option value="">Everything</option>
              <optgroup label="Groups">
                {FAMILIES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </optgroup>
              <optgroup label="Kinds">
                {kinds.map((kind) => (
                  <option key={kind} value={kind}>
                    {kindText(kind)}
                  </option>
                ))}
              </optgroup>
            </SelectField>
            <Field
              id="activity-search"
              label="Search"
              type="search"
              value={draft.search ?? ''}
              placeholder="a path, an e-mail, a name"
              maxLength={200}
              onChange={(e) => set('search')(e.target.value)}
              data-testid="activity-search"
            />
            <Field
              id="activity-from"
              label="From"
              type="date"
              value={draft.from ?? ''}
              onChange={(e) => set('from')(e.target.value)}
            />
            <Field
              id="activity-to"
              label="To"
              type="date"
              value={draft.to ?? ''}
              onChange={(e) => set('to')(e.target.value)}
            />
            <button type="submit" className="button is-primary" data-testid="activity-apply">
              Filter
            </button>
          </form>
          <ListState
            load={entries}
            label="the activity"
            empty={emptyText('Nothing recorded matches.')}
          >
            {(page) => (
              <>
                <DataTable testId="activity-list" columns={['When', 'Who', 'What', 'Details']}>
                  {page.items.map((entry) => (
                    <tr key={entry._id} data-testid="activity-row" data-kind={entry.kind}>
                      <td>{formatDate(entry.createdAt)}</td>
                      <td>{entry.actor}</td>
                      <td>
                        <strong>{kindText(entry.kind)}</strong>
                        {entry.target === '' ? null : (
                          <>
                            {' '}
                            <code>{entry.target}</code>
                          </>
                        )}
                      </td>
                      <td className="activity-details">{detailsText(entry.details)}</td>
                    </tr>
                  ))}
                </DataTable>
                <NewerOlderPager
                  className="row-actions activity-pager"
                  pageNo={pageNo}
                  hasNext={page.page.hasNext}
                  onPage={setPageNo}
                  olderTestId="activity-older"
                >
                  Page {page.page.current} · {page.page.itemTotal.toLocaleString('en-US')}{' '}
                  {page.page.itemTotal === 1 ? 'entry' : 'entries'}
                </NewerOlderPager>
              </>
            )}
          </ListState>
        </>
      )}
    </div>
  )
}

export const ErrorBoundary = RouteErrorBoundary
