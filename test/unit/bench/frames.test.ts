import { describe, expect, it } from 'vitest';
import { longFrames, twoFrameFrames } from '../../support/frames';

describe('the benchmarks’ count of long frames', () => {
  it('counts a frame of three display frames or a late one, not one of two read through the 0.1 ms clock', () => {
    // A two-frame gap (33.33 ms) between times read to 0.1 ms: 4046.9 - 4013.5 is 33.40000000000009 in doubles.
    const twoFrames = 4046.9 - 4013.5;
    expect(twoFrames).toBeGreaterThan(33.4);
    const frames = [16.7, 16.6, 16.8, 33.3, twoFrames, 33.5, 50.0, 83.4];
    expect(longFrames(frames)).toEqual([33.5, 50.0, 83.4]);
    expect(twoFrameFrames(frames)).toEqual([33.3, twoFrames]);
  });
});
