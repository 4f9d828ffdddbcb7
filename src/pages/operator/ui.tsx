/** The small set of controls every view uses: cards, switches, command buttons, errors, copy, confirm. */
import type { Signal } from '@preact/signals';
import { useSignal } from '@preact/signals';
import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import type { CommandName, PayloadArgs, SentPayload } from '../../protocol/index.ts';
import { IMAGE_TYPES } from '../../protocol/index.ts';
import type { CommandAnswer, CommandResult } from '../common/client.ts';
import { api } from './api.ts';
import { trigger } from './session.ts';

export function Card(props: {
  title: string;
  hook: string;
  wide?: boolean;
  /** Takes a whole row where the grid has two columns (tablet), so it is not left half empty. */
  fill?: boolean;
  actions?: ComponentChildren;
  children: ComponentChildren;
}) {
  const id = useId();
  return (
    <section
      class={`card${props.wide ? ' card--wide' : ''}${props.fill ? ' card--fill' : ''}`}
      aria-labelledby={id}
      data-card={props.hook}
    >
      <header class="card__head">
        <h2 id={id}>{props.title}</h2>
        {props.actions ? <div class="card__actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  );
}

/** An error in words, where the action happened; screen readers announce it. */
export function ErrorText(props: { message: string | null; children?: ComponentChildren }) {
  if (!props.message) return null;
  return (
    <p class="error" role="alert" data-error>
      {props.message}
      {props.children}
    </p>
  );
}

/** An on/off switch. `checked` undefined means the state is not known yet (the overlay has not reported). */
export function Switch(props: {
  label: string;
  checked: boolean | undefined;
  onChange: (next: boolean) => void;
  disabled?: boolean;
  hook?: Record<string, string>;
  hint?: string;
}) {
  const known = props.checked !== undefined;
  return (
    <button
      type="button"
      role="switch"
      class="switch"
      aria-checked={props.checked === true}
      disabled={props.disabled}
      onClick={() => props.onChange(!props.checked)}
      {...props.hook}
    >
      <span
        class="switch__track"
        data-state={known ? (props.checked ? 'on' : 'off') : 'unknown'}
        aria-hidden="true"
      >
        <span class="switch__thumb" />
      </span>
      <span class="switch__label">{props.label}</span>
      <span class="switch__state" aria-hidden="true">
        {known ? (props.checked ? 'On' : 'Off') : (props.hint ?? 'Unknown')}
      </span>
    </button>
  );
}

export interface CommandRun {
  /** Runs a command of the contract: its name, payload and answer are typed by it. */
  run: <N extends CommandName>(action: N, ...payload: PayloadArgs<N>) => Promise<CommandAnswer<N>>;
  busy: Signal<boolean>;
  error: Signal<string | null>;
  failure: Signal<CommandResult | null>;
}

/** Runs commands for one control and keeps its busy flag and its last error. */
export function useCommand(): CommandRun {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const failure = useSignal<CommandResult | null>(null);
  const run = async <N extends CommandName>(action: N, ...payload: PayloadArgs<N>) => {
    busy.value = true;
    error.value = null;
    const result = await trigger(action, ...payload);
    busy.value = false;
    if (!result.ok) {
      error.value = result.message;
      failure.value = result;
    } else failure.value = null;
    return result;
  };
  return { run, busy, error, failure };
}

/** A button's payload prop: absent for a command that takes none, optional where the payload is. */
type PayloadProp<N extends CommandName> =
  PayloadArgs<N> extends []
    ? { payload?: never }
    : PayloadArgs<N> extends [payload: infer P]
      ? { payload: P }
      : { payload?: SentPayload<N> };

type ButtonProps<N extends CommandName> = Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'onClick' | 'action' | 'payload'
> & {
  action: N;
  variant?: 'primary' | 'danger' | 'plain';
  children: ComponentChildren;
} & PayloadProp<N>;

/** A button that runs one command and shows its error next to itself. */
export function CommandButton<N extends CommandName>({
  action,
  payload,
  variant = 'plain',
  children,
  ...rest
}: ButtonProps<N>) {
  const command = useCommand();
  const args = (payload === undefined ? [] : [payload]) as PayloadArgs<N>;
  return (
    <span class="command">
      <button
        type="button"
        class={`btn btn--${variant}`}
        aria-busy={command.busy.value}
        onClick={() => void command.run(action, ...args)}
        {...rest}
      >
        {children}
      </button>
      <ErrorText message={command.error.value} />
    </span>
  );
}

/**
 * The one confirm pattern of the app, for what is irreversible on air (swap, reset, an import over
 * results, instant reveal with steps hidden): a button that asks first, in a modal dialog (focus
 * moves into it; Escape cancels), naming what will change.
 */
export function ConfirmButton(props: {
  label: ComponentChildren;
  question: string;
  detail: string;
  confirmLabel: string;
  onConfirm: () => void;
  variant?: 'danger' | 'plain' | 'primary';
  small?: boolean;
  hook?: Record<string, string>;
  ariaLabel?: string;
  disabled?: boolean;
  busy?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <button
        type="button"
        class={`btn btn--${props.variant ?? 'danger'}${props.small ? ' btn--small' : ''}`}
        aria-label={props.ariaLabel}
        disabled={props.disabled}
        aria-busy={props.busy}
        onClick={() => dialog.current?.showModal()}
        {...props.hook}
      >
        {props.label}
      </button>
      <dialog ref={dialog} class="dialog" aria-labelledby={titleId} data-confirm>
        <h2 id={titleId}>{props.question}</h2>
        <p>{props.detail}</p>
        <form method="dialog" class="row row--end">
          <button type="submit" class="btn btn--plain" value="cancel">
            Cancel
          </button>
          <button
            type="submit"
            class="btn btn--danger"
            value="confirm"
            onClick={() => {
              props.onConfirm();
            }}
          >
            {props.confirmLabel}
          </button>
        </form>
      </dialog>
    </>
  );
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Pages opened over plain HTTP from another device have no clipboard API.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}

/** `caption`: the button's words where "Copy" alone would not say which (two copy buttons side by side). */
export function CopyButton(props: { text: string; label: string; caption?: string }) {
  const copied = useSignal<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (copied.value === 'idle') return;
    const timer = setTimeout(() => {
      copied.value = 'idle';
    }, 2000);
    return () => clearTimeout(timer);
  }, [copied.value]);
  return (
    <button
      type="button"
      class="btn btn--small"
      aria-label={props.label}
      onClick={async () => {
        copied.value = (await copyText(props.text)) ? 'copied' : 'failed';
      }}
    >
      {copied.value === 'copied'
        ? 'Copied'
        : copied.value === 'failed'
          ? 'Copy failed'
          : (props.caption ?? 'Copy')}
    </button>
  );
}

/** An address shown in monospace with a copy button. */
export function Address(props: { url: string; hook: Record<string, string>; what: string }) {
  return (
    <li class="address" {...props.hook}>
      <code>{props.url}</code>
      <CopyButton text={props.url} label={`Copy ${props.what} ${props.url}`} />
    </li>
  );
}

/** The values of a TypeBox union of literals (BoFormatSchema, SceneSchema …), in declaration order. */
export function literals<T extends string>(schema: { anyOf: ReadonlyArray<{ const: T }> }): T[] {
  return schema.anyOf.map((member) => member.const);
}

/**
 * A <select>'s value as one of the choices it offers (its options are those choices), typed for the
 * command it goes to; undefined for anything else, which the command then refuses in words.
 */
export function chosen<T extends string>(choices: readonly T[], value: string): T | undefined {
  return choices.find((choice) => choice === value);
}

/**
 * A form value that starts from the server's and follows it whenever the server's changes (another
 * operator, a Stream Deck), so what is on screen never lags behind the show.
 */
export function useDraft<T>(server: T): Signal<T> {
  const draft = useSignal(server);
  const key = JSON.stringify(server);
  useEffect(() => {
    draft.value = server;
  }, [key]);
  return draft;
}

/** A labelled form field (label wraps its control, so the control's accessible name is the label). */
export function Field(props: { label: string; children: ComponentChildren; wide?: boolean }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is passed in as a child
    <label class={props.wide ? 'field field--wide' : 'field'}>
      <span>{props.label}</span>
      {props.children}
    </label>
  );
}

/** Every image type the media store takes (src/protocol/media.ts), as a file input's `accept`. */
export const IMAGE_FILES = IMAGE_TYPES.map((image) => image.type).join(',');

/** A labelled file input that uploads the chosen image to the media store and hands back what it stored. */
export function ImageInput(props: {
  label: string;
  hook: string;
  accept?: string;
  onUploaded: (media: { id: string; url: string }) => void;
  onError: (message: string) => void;
}) {
  return (
    <Field label={props.label}>
      <input
        type="file"
        accept={props.accept ?? IMAGE_FILES}
        data-upload={props.hook}
        onChange={async (event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          if (!file) return;
          const answer = await api.uploadImage(file);
          input.value = '';
          if (answer.ok) props.onUploaded(answer.media);
          else props.onError(answer.message);
        }}
      />
    </Field>
  );
}
