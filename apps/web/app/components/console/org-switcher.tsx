// The organisation switcher of the console header: picking one remembers it and shows the same
// page for that organisation.
import { useLocation } from 'react-router'
import type { Organization } from '../../lib/api.ts'
import { rememberOrg, switchOrgPath } from '../../lib/console-org.ts'

export function OrgSwitcher({
  organizations,
  current,
}: {
  organizations: Organization[]
  current: string
}) {
  const location = useLocation()
  if (organizations.length === 0) return null
  const onChange = (orgId: string) => {
    rememberOrg(orgId)
    // A full load: every loader and list of the page reads the new organisation.
    window.location.assign(switchOrgPath(location.pathname, location.search, orgId))
  }
  return (
    <label className="org-switcher">
      <span className="visually-hidden">Organisation</span>
      <select
        value={current}
        onChange={(event) => onChange(event.target.value)}
        data-testid="org-switcher"
        disabled={organizations.length < 2}
        title={organizations.length < 2 ? 'You belong to one organisation' : 'Switch organisation'}
      >
        {organizations.map((org) => (
          <option key={org._id} value={org._id}>
            {org.name ?? org.cloudName ?? org._id}
          </option>
        ))}
      </select>
    </label>
  )
}
