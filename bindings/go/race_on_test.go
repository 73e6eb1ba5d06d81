//go:build race

package wire

// raceOn: the test binary runs under the race detector (about ten times
// slower), so the randomized tests take fewer values.
const raceOn = true
