import { describe, expect, it } from 'vitest';
import { linkedAbort } from './linked-abort.js';

describe('linkedAbort', () => {
  it('aborts with the reason of whichever parent aborts first', () => {
    const first = new AbortController();
    const second = new AbortController();
    const { controller } = linkedAbort([first.signal, undefined, second.signal]);
    second.abort(new Error('second'));
    first.abort(new Error('first'));
    expect(controller.signal.aborted).toBe(true);
    expect((controller.signal.reason as Error).message).toBe('second');
  });

  it('starts aborted when a parent already is', () => {
    const parent = new AbortController();
    parent.abort('gone');
    expect(linkedAbort([parent.signal]).controller.signal.reason).toBe('gone');
  });

  it('after release, a parent abort no longer reaches it and no listener stays on the parent', () => {
    const parent = new AbortController();
    const links = Array.from({ length: 50 }, () => linkedAbort([parent.signal]));
    for (const link of links) link.release();
    parent.abort('late');
    expect(links.every((link) => !link.controller.signal.aborted)).toBe(true);
  });

  it('aborting the controller itself leaves the parents alone', () => {
    const parent = new AbortController();
    const { controller, release } = linkedAbort([parent.signal]);
    controller.abort('own');
    release();
    expect(parent.signal.aborted).toBe(false);
  });
});
