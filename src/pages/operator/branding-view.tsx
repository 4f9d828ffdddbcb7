/**
 * What the broadcast pages show besides the match, set here and saved with the settings: the event
 * logo, the sponsor images (rotating on the sponsor overlay and scene), the talents of the talents
 * scene; and the browser-source addresses of the HUD pages, ready to copy (with the read-only view
 * key for OBS on another machine of the local network, never the access token); the radar's overview images and whether it is on air.
 */
import { computed, useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { ACTIVE_DUTY_POOL, mapLabel, normalizeMapName } from '../../../machines/map-names.ts';
import { CALIBRATED_MAPS, radarOverviewOf } from '../../../machines/radar-overviews.ts';
import {
  mediaUrl,
  RADAR_IMAGE_MAX_BYTES,
  RADAR_IMAGE_MAX_SIDE,
  RADAR_IMAGE_MIN_SIDE,
  RADAR_MEDIA_PATH,
} from '../../protocol/media.ts';
import { gameLive } from '../common/game-store.ts';
import { SafeImage } from '../common/safe-image.tsx';
import type { PanelStatus } from '../common/store.ts';
import { panelStatus, state } from '../common/store.ts';
import { api, readBase64, request } from './api.ts';
import { isImageName, radarFilesOf, radarTargetOf } from './radar-files.ts';
import { Address, Card, ConfirmButton, ErrorText, Field, ImageInput } from './ui.tsx';

type Branding = PanelStatus['settings']['branding'];
type Talent = Branding['talents'][number];

const IMAGE_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

/** Saves a part of the branding; the new settings come back in panel.status. */
function useSave() {
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const save = async (change: Partial<Branding>) => {
    busy.value = true;
    const answer = await api.settings({ branding: change });
    busy.value = false;
    error.value = answer.ok ? null : answer.message;
    return answer.ok;
  };
  return { error, busy, save };
}

export function BrandingCard() {
  const branding = panelStatus.value?.settings.branding;
  const { error, save } = useSave();
  const sponsorName = useSignal('');
  const shortName = useSignal<string | null>(null);
  if (!branding) return null;
  const fail = (message: string) => {
    error.value = message;
  };
  const savedShort = branding.eventShortName ?? '';
  return (
    <Card title="Event logo and sponsors" hook="branding">
      <form
        class="branding-row"
        data-form="event-short-name"
        onSubmit={async (event) => {
          event.preventDefault();
          if (await save({ eventShortName: (shortName.value ?? savedShort).trim() })) shortName.value = null;
        }}
      >
        <Field label="Short event name (top bar, when the whole name does not fit)">
          <input
            name="eventShortName"
            value={shortName.value ?? savedShort}
            maxLength={60}
            placeholder="e.g. IEM Cologne 2026"
            onInput={(e) => (shortName.value = e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="btn" data-action="save-event-short-name">
          Save
        </button>
      </form>
      <div class="branding-row">
        {branding.eventLogo ? (
          <SafeImage class="thumb" src={mediaUrl(branding.eventLogo)} alt="Event logo" data-event-logo />
        ) : (
          <p class="muted small">No event logo: the badge shows the event name.</p>
        )}
        <ImageInput
          label="Event logo"
          hook="event-logo"
          accept={IMAGE_TYPES}
          onUploaded={({ id }) => void save({ eventLogo: id })}
          onError={fail}
        />
        {branding.eventLogo ? (
          <button
            type="button"
            class="btn"
            data-action="remove-event-logo"
            onClick={() => void save({ eventLogo: null })}
          >
            Remove logo
          </button>
        ) : null}
      </div>
      <h3>Sponsors</h3>
      <ul class="sponsor-list">
        {branding.sponsors.map((sponsor, i) => (
          <li key={sponsor.image} data-sponsor-row={i}>
            <SafeImage class="thumb" src={mediaUrl(sponsor.image)} alt={sponsor.name} />
            <span>{sponsor.name || 'Sponsor'}</span>
            <button
              type="button"
              class="btn"
              aria-label={`Remove sponsor ${sponsor.name || i + 1}`}
              onClick={() => void save({ sponsors: branding.sponsors.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <div class="branding-row">
        <Field label="Sponsor name">
          <input
            value={sponsorName.value}
            maxLength={64}
            onInput={(e) => (sponsorName.value = e.currentTarget.value)}
          />
        </Field>
        <ImageInput
          label="Add sponsor image"
          hook="sponsor"
          accept={IMAGE_TYPES}
          onUploaded={({ id: image }) => {
            void save({ sponsors: [...branding.sponsors, { name: sponsorName.value.trim(), image }] });
            sponsorName.value = '';
          }}
          onError={fail}
        />
      </div>
      <p class="muted small">PNG, JPEG, WebP or GIF, at most 2 MiB each.</p>
      <ErrorText message={error.value} />
    </Card>
  );
}

export function TalentsCard() {
  const saved = panelStatus.value?.settings.branding.talents;
  const draft = useSignal<Talent[]>(saved ?? []);
  const savedText = JSON.stringify(saved ?? []);
  // The saved list replaces the draft whenever it changes on the server (another operator).
  useEffect(() => {
    draft.value = JSON.parse(savedText) as Talent[];
  }, [savedText, draft]);
  const { error, busy, save } = useSave();
  const edit = (i: number, change: Partial<Talent>) => {
    draft.value = draft.value.map((talent, j) => {
      if (j !== i) return talent;
      const next: Talent = { ...talent, ...change };
      if (!next.handle) delete next.handle;
      if (!next.photo) delete next.photo;
      return next;
    });
  };
  return (
    <Card title="Talents" hook="talents">
      <ol class="talent-list">
        {draft.value.map((talent, i) => (
          <li key={i} data-talent-row={i}>
            {talent.photo ? (
              <SafeImage class="thumb thumb--round" src={mediaUrl(talent.photo)} alt="" />
            ) : null}
            <Field label="Name">
              <input
                value={talent.name}
                maxLength={64}
                onInput={(e) => edit(i, { name: e.currentTarget.value })}
              />
            </Field>
            <Field label="Role">
              <input
                value={talent.role}
                maxLength={32}
                onInput={(e) => edit(i, { role: e.currentTarget.value })}
              />
            </Field>
            <Field label="Handle">
              <input
                value={talent.handle ?? ''}
                maxLength={64}
                onInput={(e) => edit(i, { handle: e.currentTarget.value })}
              />
            </Field>
            <ImageInput
              label="Photo"
              hook={`talent-photo-${i}`}
              accept={IMAGE_TYPES}
              onUploaded={({ id: photo }) => edit(i, { photo })}
              onError={(message) => (error.value = message)}
            />
            <button
              type="button"
              class="btn"
              aria-label={`Remove ${talent.name || `talent ${i + 1}`}`}
              onClick={() => (draft.value = draft.value.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <div class="branding-row">
        <button
          type="button"
          class="btn"
          data-action="add-talent"
          disabled={draft.value.length >= 12}
          onClick={() => (draft.value = [...draft.value, { name: '', role: 'Caster' }])}
        >
          Add talent
        </button>
        <button
          type="button"
          class="btn btn--primary"
          data-action="save-talents"
          aria-busy={busy.value}
          onClick={() => void save({ talents: draft.value.map((t) => ({ ...t, name: t.name.trim() })) })}
        >
          Save talents
        </button>
      </div>
      <ErrorText message={error.value} />
    </Card>
  );
}

const SOURCE_PATHS = [
  '/hud',
  '/scenes/window',
  '/scenes/versus',
  '/scenes/talents',
  '/scenes/sponsors',
  '/scenes/mapRecap',
];

/** The HUD pages' addresses for OBS browser sources: this machine, and with LAN mode the others. */
export function SourcesCard() {
  const status = panelStatus.value;
  // The view key, not the access token: a page opened with it only shows (docs/access.md).
  const viewKey = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const lan = status?.settings.lanMode === true;
  const load = async (regenerate: boolean) => {
    const answer = regenerate ? await api.regenerateViewKey() : await api.viewKey();
    error.value = answer.ok ? null : answer.message;
    if (answer.ok) viewKey.value = answer.viewKey;
  };
  useEffect(() => {
    if (lan) void load(false);
  }, [lan]);
  const remote = lan
    ? (status?.app.appUrls ?? []).filter((url) => !/\/\/(127\.|\[::1\]|localhost)/.test(url))
    : [];
  return (
    <Card title="Browser sources" hook="sources" wide>
      <p class="muted small">
        Add these as OBS browser sources at 1920x1080. {status?.overlayPages ?? 0} HUD overlay{' '}
        {status?.overlayPages === 1 ? 'page is' : 'pages are'} connected now.
      </p>
      <ul class="address-list">
        {SOURCE_PATHS.map((path) => (
          <Address url={`${window.location.origin}${path}`} what="source" hook={{ 'data-source': path }} />
        ))}
      </ul>
      {remote.length > 0 && viewKey.value ? (
        <>
          <h3>From another machine of the local network</h3>
          <p class="muted small">These addresses carry the view key: they show the HUD and run no command.</p>
          <ul class="address-list">
            {remote.flatMap((base) =>
              SOURCE_PATHS.map((path) => (
                <Address
                  url={`${base}${path}?view=${viewKey.value}`}
                  what="network source"
                  hook={{ 'data-lan-source': path }}
                />
              )),
            )}
          </ul>
          <ConfirmButton
            label="Regenerate view key"
            question="Regenerate the view key?"
            detail="Browser sources on other machines are disconnected at once and need the new addresses. This computer's sources are not affected."
            confirmLabel="Regenerate and disconnect"
            small
            hook={{ 'data-action': 'regenerate-view-key' }}
            onConfirm={() => void load(true)}
          />
          <ErrorText message={error.value} />
        </>
      ) : lan ? null : (
        <p class="muted small">Switch on local network mode for OBS on another machine.</p>
      )}
    </Card>
  );
}

// ---------- The radar's images and status (issue 19) ----------

type RadarImages = NonNullable<Branding['radarImages']>;

/** Why the radar is or is not on air, in words: the HUD state, the live map and its calibration. */
const radarStatus = computed(() => {
  const visible = state.value?.radarVisible;
  const map = gameLive.value.map?.name ?? null;
  const images = panelStatus.value?.settings.branding.radarImages ?? {};
  if (visible === false) {
    return { tone: 'off', text: 'Switched off (Panels > Radar): the radar is not drawn.' } as const;
  }
  if (!map || state.value?.gameReceiving !== true) {
    return {
      tone: 'waiting',
      text: 'Waiting for game data: the radar shows once the game sends a map.',
    } as const;
  }
  const name = normalizeMapName(map);
  if (!name || !radarOverviewOf(map)) {
    return {
      tone: 'uncalibrated',
      text: `No radar calibration for ${map}: the radar stays hidden on this map. It knows ${CALIBRATED_MAPS.length} maps (below).`,
    } as const;
  }
  const label = mapLabel(name);
  return images[name]
    ? ({ tone: 'on-air', text: `On air: ${label}, drawn on the uploaded overview.` } as const)
    : ({
        tone: 'on-air',
        text: `On air: ${label}, on a plain background (no overview uploaded for ${label}).`,
      } as const);
});

const STATUS_CLASS = {
  off: 'muted',
  waiting: 'muted',
  uncalibrated: 'warning',
  'on-air': 'success',
} as const;
/** A radar image is square: its thumbnail too. */
const SQUARE = { width: '40px', height: '40px' };
/** One map a line: thumbnail, name, its buttons. */
const ROW = { alignItems: 'center', flexWrap: 'nowrap' };

/** Uploads a radar image (its own kind: square, up to 4 MiB) and hands back its media id. */
async function uploadRadarImage(file: Blob) {
  return request<{ media: { id: string; url: string; width: number; height: number } }>(
    'POST',
    RADAR_MEDIA_PATH,
    { data: await readBase64(file) },
  );
}

/** A button that picks an image and uploads it as a radar image (the file input inside, unseen). */
function RadarUpload(props: {
  text: string;
  label: string;
  hook: string;
  onUploaded: (id: string) => void;
  onError: (m: string) => void;
}) {
  return (
    <label class="btn" aria-label={props.label}>
      {props.text}
      <input
        type="file"
        class="sr-only"
        accept={IMAGE_TYPES}
        data-upload={props.hook}
        onChange={async (event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          if (!file) return;
          const answer = await uploadRadarImage(file);
          input.value = '';
          if (answer.ok) props.onUploaded(answer.media.id);
          else props.onError(answer.message);
        }}
      />
    </label>
  );
}

/**
 * Several overviews in one action: images, a folder or a .zip, each given to its map by its name
 * (radar-files.ts), uploaded one after the other, then saved at once. Says what went where and
 * what was left out.
 */
function RadarBatch(props: { images: RadarImages; save: (images: RadarImages) => Promise<boolean> }) {
  const report = useSignal<string | null>(null);
  const busy = useSignal(false);
  const take = async (input: HTMLInputElement) => {
    const picked = [...(input.files ?? [])];
    input.value = '';
    if (picked.length === 0) return;
    busy.value = true;
    const next: RadarImages = { ...props.images };
    const done: string[] = [];
    const skipped: string[] = [];
    try {
      const files = await radarFilesOf(picked);
      // Each map's image before its lower level: a lower level needs the map's image.
      const targets = files
        .map((file) => ({ file, target: radarTargetOf(file.name) }))
        .sort((a, b) => (a.target?.level === 'lower' ? 1 : 0) - (b.target?.level === 'lower' ? 1 : 0));
      for (const { file, target } of targets) {
        const shortName = file.name.split(/[\\/]/).at(-1) ?? file.name;
        if (!target) {
          skipped.push(`${shortName} (${isImageName(shortName) ? 'no map in its name' : 'not an image'})`);
          continue;
        }
        if (target.level === 'lower' && !next[target.map]) {
          skipped.push(`${shortName} (the lower level without the map's overview)`);
          continue;
        }
        const answer = await uploadRadarImage(file.blob);
        if (!answer.ok) {
          skipped.push(`${shortName} (${answer.message})`);
          continue;
        }
        const set = next[target.map];
        next[target.map] =
          target.level === 'lower' && set
            ? { ...set, lower: answer.media.id }
            : { ...set, image: answer.media.id };
        done.push(`${mapLabel(target.map)}${target.level === 'lower' ? ' (lower level)' : ''}`);
      }
    } catch (error) {
      skipped.push(`the archive (${(error as Error).message})`);
    }
    const saved = done.length > 0 ? await props.save(next) : true;
    busy.value = false;
    report.value = [
      done.length > 0 ? `${saved ? 'Uploaded' : 'Not saved'}: ${done.join(', ')}.` : 'Nothing uploaded.',
      skipped.length > 0 ? `Left out: ${skipped.join('; ')}.` : '',
    ]
      .filter(Boolean)
      .join(' ');
  };
  return (
    <div class="branding-row">
      <label class="btn" aria-label="Upload several overviews: images or a .zip">
        Upload several…
        <input
          type="file"
          class="sr-only"
          multiple
          accept={`${IMAGE_TYPES},.zip,application/zip`}
          data-upload="radar-many"
          disabled={busy.value}
          onChange={(event) => void take(event.currentTarget)}
        />
      </label>
      <label class="btn" aria-label="Upload a folder of overviews">
        Upload a folder…
        <input
          type="file"
          class="sr-only"
          multiple
          {...{ webkitdirectory: true }}
          data-upload="radar-folder"
          disabled={busy.value}
          onChange={(event) => void take(event.currentTarget)}
        />
      </label>
      {report.value ? (
        <p class="muted small" role="status" data-radar-batch>
          {report.value}
        </p>
      ) : null}
    </div>
  );
}

function RadarMapRow(props: {
  map: string;
  images: RadarImages;
  save: (images: RadarImages) => Promise<boolean>;
  fail: (message: string) => void;
}) {
  const { map, images, save, fail } = props;
  const set = images[map];
  const label = mapLabel(map);
  const twoLevels = radarOverviewOf(map)?.thresholdZ != null;
  const without = () => Object.fromEntries(Object.entries(images).filter(([name]) => name !== map));
  return (
    <li data-radar-map-row={map} data-radar-image-set={String(set !== undefined)} style={ROW}>
      {set ? (
        <SafeImage class="thumb" style={SQUARE} src={mediaUrl(set.image)} alt={`${label} overview`} />
      ) : (
        <span class="thumb" style={SQUARE} aria-hidden="true" />
      )}
      <strong style={{ flex: 1 }}>{label}</strong>
      <RadarUpload
        text={set ? 'Replace' : 'Upload'}
        label={`Upload the overview of ${label}`}
        hook={`radar-${map}`}
        onUploaded={(image) => void save({ ...images, [map]: { ...set, image } })}
        onError={fail}
      />
      {twoLevels ? (
        <RadarUpload
          text={set?.lower ? 'Replace lower' : 'Lower level'}
          label={`Upload the lower level of ${label}`}
          hook={`radar-${map}-lower`}
          onUploaded={(lower) =>
            set ? void save({ ...images, [map]: { ...set, lower } }) : fail('Upload the overview first.')
          }
          onError={fail}
        />
      ) : null}
      {set ? (
        <button
          type="button"
          class="btn"
          aria-label={`Remove the radar images of ${label}`}
          onClick={() => void save(without())}
        >
          Remove
        </button>
      ) : null}
    </li>
  );
}

/**
 * The radar: whether it is on air and why not, and the overview image per map (the operator's own:
 * no image of the game ships with hud-automation). The switch is with the other panels.
 */
export function RadarCard() {
  const images = panelStatus.value?.settings.branding.radarImages ?? {};
  const { error, save } = useSave();
  const status = radarStatus.value;
  const fail = (message: string) => {
    error.value = message;
  };
  const saveImages = (next: RadarImages) => save({ radarImages: next });
  const first = CALIBRATED_MAPS.filter((map) => (ACTIVE_DUTY_POOL as readonly string[]).includes(map));
  const others = CALIBRATED_MAPS.filter((map) => !first.includes(map));
  const missing = ACTIVE_DUTY_POOL.filter((map) => images[map] === undefined);
  const row = (map: string) => (
    <RadarMapRow key={map} map={map} images={images} save={saveImages} fail={fail} />
  );
  return (
    <Card title="Radar" hook="radar">
      <p class={STATUS_CLASS[status.tone]} data-radar-status={status.tone}>
        {status.text}
      </p>
      <p class="muted small">
        The overview of each map, as the game's radar draws it (a square image, 1024x1024 in the game's
        files), under the dots. Without one the radar draws a plain background. Two-level maps take the lower
        level's image too: the radar shows it while the observed player is down there.
      </p>
      <RadarBatch images={images} save={saveImages} />
      <p class="muted small" data-radar-missing={missing.join(' ')}>
        {missing.length === 0
          ? 'Every Active Duty map has its overview.'
          : `Active Duty maps without an overview: ${missing.map(mapLabel).join(', ')}.`}
      </p>
      <ul class="sponsor-list">{first.map(row)}</ul>
      <details>
        <summary>Other maps ({others.length})</summary>
        <ul class="sponsor-list">{others.map(row)}</ul>
      </details>
      <p class="muted small">
        PNG, JPEG, WebP or GIF, square, {RADAR_IMAGE_MIN_SIDE} to {RADAR_IMAGE_MAX_SIDE} pixels a side, at
        most {RADAR_IMAGE_MAX_BYTES / 1024 / 1024} MiB.
      </p>
      <ErrorText message={error.value} />
    </Card>
  );
}
