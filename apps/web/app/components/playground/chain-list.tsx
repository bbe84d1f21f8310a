// The chain panel of the playground: the operations and presets in order, with moving,
// removing and selecting each, the cap note, the refusal, the tried preset's keep/go back, and
// the buttons that open the options.
import { CATALOGUE } from '@tessera/url'
import type { Dispatch } from 'react'
import { chainCount, MAX_TRANSFORMATIONS } from './chain-items.ts'
import {
  type ChainItem,
  chainPattern,
  type OptionsTab,
  type PlaygroundAction,
  type PlaygroundState,
} from './playground-state.ts'

export function ChainPanel({
  state,
  dispatch,
  replacing,
  onShowOptions,
  onClear,
}: {
  state: PlaygroundState
  dispatch: Dispatch<PlaygroundAction>
  /** Whether the options panel is open to replace the selected item rather than to add. */
  replacing: boolean
  onShowOptions: (tab: OptionsTab) => void
  onClear: () => void
}) {
  const count = chainCount(state.transformationList)
  const optionsOpen = state.isTransformationVisible || state.isPresetsVisible
  return (
    <section className="pg-panel" aria-labelledby="pg-chain-heading">
      <div className="pg-panel-head">
        <h2 id="pg-chain-heading">Transformations</h2>
        <span className="pg-count" data-testid="operation-count">
          {count} of {MAX_TRANSFORMATIONS} operations
        </span>
      </div>
      {state.transformationList.length === 0 ? (
        <p className="pg-empty">No transformations yet: the result is the original image.</p>
      ) : null}
      <ol className="pg-chain" aria-labelledby="pg-chain-heading">
        {state.transformationList.map((item, index) => (
          <ChainRow
            // biome-ignore lint/suspicious/noArrayIndexKey: the same operation may appear twice
            key={`${index}-${item.plugin}.${item.method}`}
            item={item}
            index={index}
            last={state.transformationList.length - 1}
            selected={state.selectedTransformIdx === index}
            onSelect={() =>
              dispatch({
                type: 'select',
                index: state.selectedTransformIdx === index ? null : index,
              })
            }
            onDelete={() => dispatch({ type: 'delete', index })}
            onMove={(to) => dispatch({ type: 'move', from: index, to })}
          />
        ))}
      </ol>
      {state.error === null ? null : (
        <div className="pg-alert" role="alert">
          <span>{state.error}</span>
          <button
            type="button"
            className="button is-ghost is-small"
            onClick={() => dispatch({ type: 'dismiss_error' })}
          >
            Dismiss
          </button>
        </div>
      )}
      {state.prevTransformationList === null ? null : (
        <div className="pg-stash" role="status">
          <span>Trying a preset: keep it, or go back to the chain you had.</span>
          <button
            type="button"
            className="button is-primary is-small"
            onClick={() => dispatch({ type: 'keep_stash' })}
          >
            Keep
          </button>
          <button
            type="button"
            className="button is-secondary is-small"
            onClick={() => {
              const tried = state.transformationList.at(-1)
              dispatch(
                tried?.isPreset === true && tried.presetName !== undefined
                  ? { type: 'unstash', presetName: tried.presetName }
                  : { type: 'unstash' },
              )
            }}
          >
            Go back
          </button>
        </div>
      )}
      <div className="button-row pg-chain-actions">
        <button
          type="button"
          className="button is-primary is-small"
          disabled={state.disableAddTransformation}
          aria-expanded={optionsOpen && !replacing}
          onClick={() => onShowOptions('transformations')}
        >
          Add transformation
        </button>
        <button
          type="button"
          className="button is-secondary is-small"
          onClick={() => onShowOptions('presets')}
          disabled={state.disableAddTransformation}
        >
          Add preset
        </button>
        <button
          type="button"
          className="button is-ghost is-small"
          onClick={onClear}
          disabled={state.transformationList.length === 0}
        >
          Clear
        </button>
      </div>
      {state.disableAddTransformation ? (
        <p className="pg-note">
          The chain holds {MAX_TRANSFORMATIONS} operations, the most a URL may have: remove one to
          add another.
        </p>
      ) : null}
    </section>
  )
}

function ChainRow({
  item,
  index,
  last,
  selected,
  onSelect,
  onDelete,
  onMove,
}: {
  item: ChainItem
  index: number
  last: number
  selected: boolean
  onSelect: () => void
  onDelete: () => void
  onMove: (to: number) => void
}) {
  const spec = item.isPreset ? undefined : CATALOGUE.getOperation(item.plugin, item.method)
  const text = chainPattern([item])
  return (
    <li className={selected ? 'pg-item is-selected' : 'pg-item'}>
      <button type="button" className="pg-item-main" aria-pressed={selected} onClick={onSelect}>
        <span className="pg-item-name">
          {item.isPreset ? `Preset: ${item.displayName}` : item.displayName}
          {spec !== undefined && !spec.runnable ? (
            <span className="pill pg-pill-off">not on this server</span>
          ) : null}
        </span>
        <code>{text}</code>
      </button>
      <span className="pg-item-tools">
        <button
          type="button"
          aria-label={`Move ${item.displayName} up`}
          disabled={index === 0}
          onClick={() => onMove(index - 1)}
        >
          ↑
        </button>
        <button
          type="button"
          aria-label={`Move ${item.displayName} down`}
          disabled={index === last}
          onClick={() => onMove(index + 1)}
        >
          ↓
        </button>
        <button type="button" aria-label={`Remove ${item.displayName}`} onClick={onDelete}>
          ×
        </button>
      </span>
    </li>
  )
}
