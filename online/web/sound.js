// @ts-check
/**
 * The table's sounds: the project's own (sounds/generate.py), in the small
 * copies sounds/web.py makes (mono 8-bit mu-law WAV at 22.05 kHz), played
 * through Web Audio.  Sound is off by default on a phone (a coarse pointer or a
 * small screen) and on elsewhere; the switch's choice is a preference kept in
 * localStorage.  Nothing is fetched while sound is off: the files come once it
 * is on and the page has had a gesture (a browser lets audio start only after
 * one), and the page decodes them itself (a table of 256 values), so no audio
 * decoder of the browser's is needed.
 */

import { el, svg } from "./dom.js";
import { t } from "./i18n.js";

const PREF = "tarocchi.sound";
/** The sounds the table plays (sounds/web.py's WEB_SOUNDS), each a file `sound-<name>.wav`. */
export const SOUND_NAMES = ["play", "matto", "trick", "shuffle", "deal", "deal_won", "deal_lost", "match_won"];
/** The same sound asked for again within this many ms plays once (a burst of events after a reconnection). */
const AGAIN_MS = 90;
/** The deal: the shuffle, then the packets dealt (seconds from the deal). */
const DEALING = [{ name: "shuffle", at: 0 }, { name: "deal", at: 1.7 }, { name: "deal", at: 1.85 }, { name: "deal", at: 2 }];

/**
 * A G.711 mu-law byte's sample (-1..1).
 * @param {number} byte
 */
function unmulaw(byte) {
  const b = ~byte & 0xff;
  const exponent = (b >> 4) & 7;
  const s = ((((b & 0x0f) << 3) + 0x84) << exponent) - 0x84;
  return (b & 0x80 ? -s : s) / 32768;
}

const MULAW = Float32Array.from({ length: 256 }, (_, i) => unmulaw(i));

/**
 * A mono mu-law WAV file's rate and samples.
 * @param {ArrayBuffer} buffer
 * @returns {{rate: number, samples: Float32Array<ArrayBuffer>}}
 */
export function decodeWav(buffer) {
  const view = new DataView(buffer);
  const tag = (/** @type {number} */ at) => String.fromCharCode(...new Uint8Array(buffer, at, 4));
  if (buffer.byteLength < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("not a WAV file");
  let rate = 0;
  for (let at = 12; at + 8 <= buffer.byteLength;) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt ") {
      if (view.getUint16(body, true) !== 7 || view.getUint16(body + 2, true) !== 1) throw new Error("not mono mu-law");
      rate = view.getUint32(body + 4, true);
    } else if (id === "data") {
      if (!rate) throw new Error("no format before the data");
      const bytes = new Uint8Array(buffer, body, Math.min(size, buffer.byteLength - body));
      return { rate, samples: Float32Array.from(bytes, (b) => MULAW[b]) };
    }
    at = body + size + (size % 2);
  }
  throw new Error("no data in the WAV file");
}

/** Sound on or off: the choice made before, else off on a phone and on elsewhere. */
function chooseSound() {
  let saved = null;
  try {
    saved = localStorage.getItem(PREF);
  } catch {
    saved = null;
  }
  if (saved === "on" || saved === "off") return saved === "on";
  return !(window.matchMedia("(pointer: coarse)").matches || window.matchMedia("(max-width: 600px)").matches);
}

export class Sounds {
  /** @param {Record<string, string>} assets the page's files, name -> URL */
  constructor(assets) {
    this.assets = assets;
    this.on = chooseSound();
    /** @type {AudioContext | null} */
    this.ctx = null;
    /** @type {Map<string, AudioBuffer>} */
    this.buffers = new Map();
    this.loading = false;
    this.attached = false;
    /** @type {Map<string, number>} */
    this.last = new Map();
  }

  /**
   * The switch, pressed (a gesture: audio may start); the choice is remembered.
   * @param {boolean} on
   */
  set(on) {
    this.on = on;
    try {
      localStorage.setItem(PREF, on ? "on" : "off");
    } catch {
      /* private mode: the choice lasts as long as the page */
    }
    if (on) this.start();
    else if (this.ctx && this.ctx.state === "running") this.ctx.suspend().catch(() => {});
  }

  /** At the table: start at the first gesture (now, if the page has had one). */
  attach() {
    if (!this.attached) {
      this.attached = true;
      const wake = () => this.start();
      document.addEventListener("pointerdown", wake, true);
      document.addEventListener("keydown", wake, true);
    }
    if (navigator.userActivation && navigator.userActivation.hasBeenActive) this.start();
  }

  /** Once sound is on: the audio started (or resumed) and the files fetched. */
  start() {
    if (!this.on) return;
    if (!this.ctx) {
      try {
        this.ctx = new AudioContext();
      } catch {
        return;  // no audio on this device: the table stays silent
      }
    }
    if (this.ctx.state !== "running") this.ctx.resume().catch(() => {});
    this.load(this.ctx);
  }

  /** @param {AudioContext} ctx */
  load(ctx) {
    if (this.loading) return;
    this.loading = true;
    for (const name of SOUND_NAMES) {
      const url = this.assets[`sound-${name}.wav`];
      if (!url) continue;
      fetch(url)
        .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(`${url}: ${r.status}`))))
        .then((data) => {
          const { rate, samples } = decodeWav(data);
          const buffer = ctx.createBuffer(1, samples.length, rate);
          buffer.copyToChannel(samples, 0);
          this.buffers.set(name, buffer);
        })
        .catch(() => { /* a sound that cannot be had stays silent */ });
    }
  }

  /**
   * Play a sound (if sound is on, started, and the page is seen).
   * @param {string} name
   * @param {number} [delay] seconds from now
   */
  play(name, delay = 0) {
    const ctx = this.ctx;
    const buffer = this.buffers.get(name);
    if (!this.on || !ctx || ctx.state !== "running" || !buffer || document.hidden) return;
    const key = `${name}@${delay}`;
    const now = performance.now();
    if (now - (this.last.get(key) ?? -Infinity) < AGAIN_MS) return;
    this.last.set(key, now);
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    source.start(ctx.currentTime + delay);
  }

  /**
   * The sound of an event at the table: a card played (the Matto its own), a
   * trick taken, a deal.
   * @param {Record<string, any>} e
   * @param {string} matto the Matto's code
   */
  event(e, matto) {
    if (e.type === "play") this.play(e.card === matto ? "matto" : "play");
    else if (e.type === "trick") this.play("trick");
    else if (e.type === "deal") for (const { name, at } of DEALING) this.play(name, at);
  }

  /**
   * The sound of a deal's end (won or lost) or of the game won, from the
   * server's verdict for the seat's side (none for a draw, nor for one who
   * watches).
   * @param {{winners: number[], losers: number[]} | undefined} outcome
   * @param {number} side the seat's side (-1: watching)
   * @param {boolean} whole the game's end
   */
  verdict(outcome, side, whole) {
    if (!outcome || side < 0) return;
    if (outcome.winners.includes(side)) this.play(whole ? "match_won" : "deal_won", whole ? 1.2 : 0);
    else if (!whole && outcome.losers.includes(side)) this.play("deal_lost");
  }
}

/**
 * The sound switch: a toggle button named "Sound", a speaker with waves when
 * sound is on, crossed out when it is off.
 * @param {Sounds} sounds
 */
export function soundSwitch(sounds) {
  const button = el("button", {
    type: "button", class: "sound", id: "sound", "aria-label": t("Sound"), title: t("Sound"),
    "aria-pressed": String(sounds.on),
    onclick: () => {
      sounds.set(!sounds.on);
      button.setAttribute("aria-pressed", String(sounds.on));
    },
  }, svg("svg", { viewBox: "0 0 24 24", width: 24, height: 24, "aria-hidden": "true", focusable: "false" },
    svg("path", { d: "M3 9h4l5-4v14l-5-4H3z", class: "speaker" }),
    svg("path", { d: "M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13", class: "waves" }),
    svg("path", { d: "M16 9l6 6M22 9l-6 6", class: "mute" })));
  return button;
}
