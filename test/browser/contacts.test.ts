// The contact cards in headless Chromium, fed with real engine output: the Contacts card (table,
// summary, penetration chart), the Newton card (convergence chart, iterations per step, the Newton
// matrix heatmap with κ) and the PGS card; screenshots of the box-stack example's panel.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFixture, fixtureFromText, ROOT, type Fixture } from './fixtures';
import { requireChromium, ensureBuilt, launch, openPanel, settle, shotPath, type PanelPage } from './harness';

requireChromium();

/** Non-transparent pixels of a canvas. */
async function ink(page: Page, sel: string): Promise<number> {
  return page.$eval(sel, (c) => {
    const cv = c as HTMLCanvasElement;
    const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });
}
/** Pixels of a canvas that differ from its most common colour (an opaque canvas: the heatmap). */
async function inkOpaque(page: Page, sel: string): Promise<number> {
  return page.$eval(sel, (c) => {
    const cv = c as HTMLCanvasElement;
    const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
    const counts = new Map<number, number>();
    for (let i = 0; i < d.length; i += 4) {
      const k = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    return d.length / 4 - Math.max(...counts.values());
  });
}
const hidden = (page: Page, id: string) => page.$eval(`#cl-${id}`, (e) => (e as HTMLElement).hidden);

function assertClean(p: PanelPage, what: string): void {
  assert.deepEqual(p.cspViolations, [], `${what}: CSP violations`);
  assert.deepEqual(p.consoleErrors, [], `${what}: console errors`);
  assert.deepEqual(p.externalRequests, [], `${what}: network requests outside the page`);
}

describe('contact cards (Chromium)', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let stack: Fixture;
  let stackV: Fixture;
  let chain: Fixture;

  before(async () => {
    ensureBuilt();
    ({ browser, close } = await launch());
    stack = buildFixture('box-stack', 40);
    stack.model.thresholds = { violationTolerance: 1e-6, conditionWarning: 1e6, penetrationTolerance: 1e-3 };
    stackV = buildFixture('box-stack.velocity', 40);
    chain = buildFixture('chain', 20);
  });
  after(async () => {
    await close?.();
  });

  test('nonlinear box stack: the Contacts card lists the 12 contacts, the Newton card draws its charts and ∂h/∂x', async () => {
    const p = await openPanel(browser, stack, { width: 1500, height: 2600 });
    const page = p.page;
    assert.equal(await hidden(page, 'contacts'), false);
    assert.equal(await hidden(page, 'newton'), false);
    assert.equal(await hidden(page, 'pgs'), true, 'no PGS in the nonlinear formulation');
    // the table: one row per contact, the 4 ground contacts carry 3mg together
    const rows = await page.$$eval('#cl-contacts tbody tr', (trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent ?? '')));
    assert.equal(rows.length, 12);
    const ground = rows.filter((r) => r[1] === 'bottom → world').reduce((s, r) => s + Number(r[6]), 0);
    assert.ok(Math.abs(ground - 3 * 9.81) < 1e-2, `ground ${ground}`);
    assert.ok(rows.every((r) => r[8] === 'stick'));
    // a stack at rest: friction of 3e-13 N and gaps of 3e-14 m are round-off (under the scene's noise floor) and read as 0
    assert.ok(rows.every((r) => r[7] === '0, 0' && r[5] === '0' && r[9] === '0'), `round-off shown as data: ${JSON.stringify(rows.map((r) => [r[5], r[7], r[9]]))}`);
    const summary = (await page.textContent('#cl-contacts .cl-kv'))!;
    assert.match(summary, /CONTACTS\s*12/);
    assert.match(summary, /LARGEST PENETRATION/);
    assert.match(summary, /COMPLEMENTARITY/);
    assert.ok((await ink(page, '.cl-chart-contacts canvas')) > 1500, 'penetration / complementarity chart drawn');
    // Newton
    const nk = (await page.textContent('#cl-newton .cl-kv'))!;
    assert.match(nk, /STATUS\s*converged/);
    assert.match(nk, /κ₁\(∂h\/∂x\)\s*≈?[\d.e]+/);
    assert.match(nk, /SIZE\s*\d+ × \d+/);
    assert.ok((await ink(page, '.cl-chart-newton canvas')) > 2000, 'convergence chart drawn');
    assert.ok((await ink(page, '.cl-chart-newton-steps canvas')) > 1500, 'iterations per step drawn');
    assert.ok((await inkOpaque(page, '#cl-newton .cl-heatmap-canvas')) > 2000, 'Newton matrix heatmap drawn');
    assert.match((await page.textContent('#cl-newton'))!, /rows dyn, kin, b, n, f/);
    await page.screenshot({ path: shotPath('contacts-box-stack-light'), fullPage: true });
    await (await page.$('#cl-contacts'))!.screenshot({ path: shotPath('contacts-card-box-stack-light') });
    await (await page.$('#cl-newton'))!.screenshot({ path: shotPath('newton-card-box-stack-light') });
    // A narrow panel: the table scrolls sideways to STATE and the cone ratio, the bodies column stays at its left edge.
    await page.setViewportSize({ width: 560, height: 2600 });
    await settle(page);
    const side = await page.$eval('#cl-contacts .cl-contact-table', (w) => {
      const el = w as HTMLElement;
      const widest = el.scrollWidth > el.clientWidth;
      el.scrollLeft = el.scrollWidth;
      const cells = el.querySelector('tbody tr')!.children;
      const box = el.getBoundingClientRect();
      const [bodies, state, cone] = [1, 8, 9].map((i) => (cells[i] as HTMLElement).getBoundingClientRect());
      return { widest, wrapLeft: box.left, wrapRight: box.right, bodiesLeft: bodies.left, stateRight: state.right, coneRight: cone.right };
    });
    assert.ok(side.widest, 'the table is wider than a narrow panel: it scrolls');
    assert.ok(Math.abs(side.bodiesLeft - side.wrapLeft) < 2, `the bodies column sticks at the left edge: ${JSON.stringify(side)}`);
    assert.ok(side.coneRight <= side.wrapRight + 1 && side.stateRight <= side.wrapRight + 1, `STATE and the cone ratio scrolled into view: ${JSON.stringify(side)}`);
    await (await page.$('#cl-contacts'))!.screenshot({ path: shotPath('contacts-card-box-stack-narrow-light') });
    await page.setViewportSize({ width: 1500, height: 2600 });
    await settle(page);
    // a click on the iterations chart moves the timeline (and asks for that step's snapshot)
    const box = (await page.$('.cl-chart-newton-steps canvas'))!.boundingBox();
    const b = (await box)!;
    await page.mouse.click(b.x + b.width * 0.3, b.y + b.height * 0.4);
    const req = await p.waitForPost((m) => m.type === 'requestSnapshot');
    assert.ok(req.type === 'requestSnapshot' && req.step > 0 && req.step < 40);
    await settle(page);
    assertClean(p, 'nonlinear stack');
    await page.context().close();
  });

  test('Newton iterations per step: the steps that did not converge are marked in the error colour, also in a long run', async () => {
    // maxIterations 5: every other step of the stack stops one iteration short (20 of the first 40).
    const text = readFileSync(join(ROOT, 'examples', 'box-stack.scene.json'), 'utf8').replace('"solver": {', '"solver": { "newton": { "maxIterations": 5 },');
    const f = fixtureFromText('box-stack.scene.json', text, 160);
    const missed = f.model.history.filter((r) => r.newton && !r.newton.converged).length;
    assert.ok(missed >= 60 && missed < 160, `${missed} steps not converged`);
    const p = await openPanel(browser, f, { width: 1500, height: 2600 });
    const page = p.page;
    await settle(page);
    // pixels of the panel's error colour (--cl-error, #e51400) in the iterations chart, legend included
    const red = await page.$eval('.cl-chart-newton-steps canvas', (c) => {
      const cv = c as HTMLCanvasElement;
      const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 200 && d[i] > 0xc0 && d[i + 1] < 0x50 && d[i + 2] < 0x50) n++;
      return n;
    });
    assert.ok(red > 20 * missed, `${red} red pixels for ${missed} marks`);
    await (await page.$('#cl-newton'))!.screenshot({ path: shotPath('newton-card-not-converged-light') });
    assertClean(p, 'not converged');
    await page.context().close();
  });

  test('velocity box stack: the PGS card charts sweeps and residual, no Newton card; dark theme screenshot', async () => {
    const p = await openPanel(browser, stackV, { theme: 'dark', width: 1500, height: 2200 });
    const page = p.page;
    assert.equal(await hidden(page, 'contacts'), false);
    assert.equal(await hidden(page, 'newton'), true);
    assert.equal(await hidden(page, 'pgs'), false);
    assert.match((await page.textContent('#cl-pgs .cl-kv'))!, /STEPS BY PGS\s*40 of 40/);
    assert.ok((await ink(page, '.cl-chart-pgs canvas')) > 1500, 'PGS chart drawn');
    assert.equal(await page.$$eval('#cl-contacts tbody tr', (trs) => trs.length), 12);
    // PGS leaves frictions of 1e-7 to 1e-5 N between the resting boxes: below the contact's own floor (a
    // hundred-thousandth of the boxes' weight), they read 0 here as the 3D view draws no arrow for them
    const vrows = await page.$$eval('#cl-contacts tbody tr', (trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent ?? '')));
    const between = vrows.filter((r) => !r[1].includes('world'));
    assert.ok(between.length > 0 && between.every((r) => r[7] === '0, 0'), `residue shown as friction: ${JSON.stringify(between.map((r) => r[7]))}`);
    await page.screenshot({ path: shotPath('contacts-box-stack-velocity-dark'), fullPage: true });
    await (await page.$('#cl-pgs'))!.screenshot({ path: shotPath('pgs-card-box-stack-velocity-dark') });
    assertClean(p, 'velocity stack');
    await page.context().close();
  });

  test('velocity box stack with sleeping islands: at rest the stack sleeps, and the Contacts card says so where its contacts are missing', async () => {
    const example = readFileSync(join(ROOT, 'examples', 'box-stack.velocity.scene.json'), 'utf8');
    const text = example.replace('"formulation": "velocity"}', '"formulation": "velocity", "contacts": {"sleep": true}}');
    assert.notEqual(text, example);
    const sleepy = fixtureFromText('box-stack-sleep.scene.json', text, 200);
    assert.equal(sleepy.model.history.at(-1)?.asleep, 3, 'the three boxes sleep by step 200');
    const p = await openPanel(browser, sleepy, { width: 1500, height: 2200 });
    const page = p.page;
    assert.equal(await hidden(page, 'contacts'), false, 'the card stays, to say why there is no contact');
    const summary = (await page.textContent('#cl-contacts .cl-kv'))!;
    assert.match(summary, /CONTACTS\s*0/);
    assert.match(summary, /ASLEEP\s*3 bodies/);
    assert.match((await page.textContent('#cl-contacts'))!, /No contact at step 200\. 3 bodies are asleep \(solver\.contacts\.sleep\)/);
    await (await page.$('#cl-contacts'))!.screenshot({ path: shotPath('contacts-card-box-stack-asleep') });
    assertClean(p, 'sleeping stack');
    await page.context().close();
  });

  test('a scene without shapes shows none of the contact cards', async () => {
    const p = await openPanel(browser, chain);
    const page = p.page;
    for (const id of ['contacts', 'newton', 'pgs']) assert.equal(await hidden(page, id), true, id);
    assertClean(p, 'chain');
    await page.context().close();
  });
});
