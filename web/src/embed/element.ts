// <gpprobe-probe>: the app in embed mode inside a page, from one ES module (built as dist/app/embed.js):
//
//   <script type="module" src="https://example.org/gpprobe/embed.js"></script>
//   <gpprobe-probe data="emb.npy" metadata="meta.csv" concept="label=cat" per-class="8"
//                  epsilon="0.1" strength="5" views="map,judged" height="400"></gpprobe-probe>
//
// Each element holds an iframe of the app (index.html?embed=1 beside this module, so it works from
// any sub-path or CDN origin), which keeps the app's Content-Security-Policy, worker and state apart
// from the host page and from other elements. Attributes become the app's link parameters
// (app/link_words.ts, read by app/link_params.ts); URLs in them are relative to the host page, and their origins count as
// allowed by the host page (no confirmation asked). Changing a setting's attribute updates the embed
// in place; changing its data or views starts it again.
// The element fires "gpprobe-results" (after each probe run) and "gpprobe-select" (when a query is
// selected) with the numbers in `event.detail` (messages.ts), and "gpprobe-error" when its data could
// not be loaded (`detail.message` says why, `detail.help` what to do about it: failure_help.ts); an
// element whose data failed never fires results (no other dataset is shown in its place). Messages are checked both ways: the
// element reads only its own iframe's messages from the app's origin.
import { SEVERAL_WORDS, STATE_WORDS, URL_WORDS } from '../app/link_words.ts';
import { readToHost, type ToApp } from './messages.ts';

const APP_URL = new URL(/* @vite-ignore */ 'index.html', import.meta.url);

/** Attributes that become link parameters: the link words (same names, app/link_words.ts). */
const PARAMS: readonly string[] = STATE_WORDS;
/** Attributes holding URLs, resolved against the host page; some may list several, separated by spaces. */
const URL_PARAMS: readonly string[] = URL_WORDS;
const SEVERAL: readonly string[] = SEVERAL_WORDS;

let nextId = 1;

export class GpprobeProbe extends HTMLElement {
  static observedAttributes = [...PARAMS, 'views', 'height'];

  readonly #id = `gpprobe-${nextId++}`;
  #frame: HTMLIFrameElement | null = null;
  #ready = false;

  #urls(name: string): string[] {
    const value = this.getAttribute(name);
    if (value === null) return [];
    return (SEVERAL.includes(name) ? value.split(/\s+/) : [value.trim()])
      .filter(Boolean)
      .map((v) => (name === 'compare' && v === 'layers-demo' ? v : new URL(v, document.baseURI).href));
  }

  /** The attributes as link parameters, URLs made absolute. */
  #params(): URLSearchParams {
    const params = new URLSearchParams();
    for (const name of PARAMS) {
      if (!this.hasAttribute(name)) continue;
      if (URL_PARAMS.includes(name)) for (const url of this.#urls(name)) params.append(name, url);
      else params.set(name, this.getAttribute(name)!);
    }
    return params;
  }

  #src(): string {
    const url = new URL(APP_URL);
    url.searchParams.set('embed', '1');
    url.searchParams.set('element', this.#id);
    if (this.hasAttribute('views')) url.searchParams.set('views', this.getAttribute('views')!);
    for (const [k, v] of this.#params()) url.searchParams.append(k, v);
    return url.href;
  }

  #height(): string {
    const h = Number(this.getAttribute('height') ?? 400);
    return `${Number.isFinite(h) && h >= 200 ? h : 400}px`;
  }

  readonly #onMessage = (event: MessageEvent<unknown>) => {
    if (!this.#frame || event.source !== this.#frame.contentWindow || event.origin !== APP_URL.origin) return;
    const m = readToHost(event.data, this.#id);
    if (!m) return;
    if (m.gpprobe === 'hello') {
      const allowOrigins = [
        ...new Set(
          URL_PARAMS.flatMap((name) => this.#urls(name))
            .filter((u) => u !== 'layers-demo')
            .map((u) => new URL(u).origin),
        ),
      ];
      this.#send({ gpprobe: 'config', element: this.#id, allowOrigins });
      this.#ready = true;
    } else {
      this.dispatchEvent(new CustomEvent(`gpprobe-${m.gpprobe}`, { detail: m.detail, bubbles: true, composed: true }));
    }
  };

  #send(message: ToApp): void {
    this.#frame?.contentWindow?.postMessage(message, APP_URL.origin);
  }

  connectedCallback(): void {
    window.addEventListener('message', this.#onMessage);
    if (this.#frame) return;
    const root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent =
      ':host { display: block; max-width: 100%; } iframe { display: block; width: 100%; border: 1px solid #e4e7eb; border-radius: 8px; background: #fff; }';
    const frame = document.createElement('iframe');
    frame.title = this.getAttribute('title') ?? 'gpprobe: a Gaussian process probe';
    frame.style.height = this.#height();
    frame.src = this.#src();
    root.append(style, frame);
    this.#frame = frame;
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.#onMessage);
  }

  attributeChangedCallback(name: string, before: string | null, after: string | null): void {
    if (!this.#frame || before === after) return;
    if (name === 'height') {
      this.#frame.style.height = this.#height();
    } else if (name === 'views' || URL_PARAMS.includes(name) || name === 'embedding' || !this.#ready) {
      // New data (or views): the embed starts again on the new attributes.
      this.#ready = false;
      this.#frame.src = this.#src();
    } else {
      const params = new URLSearchParams();
      if (after !== null) params.set(name, after);
      this.#send({ gpprobe: 'set', element: this.#id, params: params.toString() });
    }
  }
}

if (!customElements.get('gpprobe-probe')) customElements.define('gpprobe-probe', GpprobeProbe);
