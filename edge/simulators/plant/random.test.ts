import { SeededRandom } from './random';

describe('plant random', () => {
  it('the generator is uniform in [0, 1) and its normals have mean 0 and deviation 1', () => {
    const random = new SeededRandom(1);
    let sum = 0;
    let squares = 0;
    let outside = 0;
    const n = 100_000;
    for (let i = 0; i < n; i += 1) {
      const u = random.next();
      outside += u >= 0 && u < 1 ? 0 : 1;
      const z = random.normal();
      sum += z;
      squares += z * z;
    }
    expect(outside).toBe(0);
    expect(Math.abs(sum / n)).toBeLessThan(0.02);
    expect(Math.abs(Math.sqrt(squares / n) - 1)).toBeLessThan(0.02);
  });
});
