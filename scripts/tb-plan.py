#!/usr/bin/python3
"""The whole game's endgame tables as this project's generator would build them: per layer (blank
cubes 0..25), its slots, its largest component, the memory that component needs, and the time and
storage projected from what layers 0-4 cost here.

  scripts/tb-plan.py [--core-us-per-slot X] [--bytes-per-slot B] [--nodes N] [--cores C]
                     [--node-memory GB] [--scaling S]

The counts are exact: a layer with k blank cubes has one slot per blank-set orbit under the 8
symmetries of the board and colouring of the other 25 - k squares (engine/tb/index.hpp), and the
orbits are counted with Burnside's lemma from the symmetries' cycles. Sections are the side to
move's cube count m; component {m, 25 - k - m} holds sections m and 25 - k - m, and needs 3 bytes
a slot (value and counter) plus 2 bytes a slot of the same two sections of layer k - 1
(engine/tb/gen/generator.hpp). The time and storage columns are projections: a slot costs
--core-us-per-slot core-microseconds (measured on layer 4 here) and --bytes-per-slot bytes of
compressed file (the layer-4 file's ratio); a component runs on one node with --scaling of its
cores' worth of speed-up (memory-bound solving does not scale perfectly).
"""
import argparse
from math import comb

# The 8 symmetries of the 5x5 board as cycle lengths on its 25 squares.
SYMMETRY_CYCLES = [
    [1] * 25,  # identity
    [1] + [4] * 6,  # rotation by 90 degrees
    [1] + [4] * 6,  # rotation by 270 degrees
    [1] + [2] * 12,  # rotation by 180 degrees
    [1] * 5 + [2] * 10,  # reflection in the middle row
    [1] * 5 + [2] * 10,  # reflection in the middle column
    [1] * 5 + [2] * 10,  # reflection in the main diagonal
    [1] * 5 + [2] * 10,  # reflection in the other diagonal
]


def fixed_subsets(cycles, size):
    """How many sets of `size` squares a symmetry with these cycles maps onto themselves: unions
    of whole cycles (the coefficient of x^size in the product of 1 + x^length)."""
    counts = [1] + [0] * 25
    for length in cycles:
        for total in range(25, length - 1, -1):
            counts[total] += counts[total - length]
    return counts[size]


def orbits(blanks):
    return sum(fixed_subsets(cycles, blanks) for cycles in SYMMETRY_CYCLES) // 8


def section_slots(blanks, mover_cubes):
    cubes = 25 - blanks
    return orbits(blanks) * comb(cubes, mover_cubes) if 0 <= mover_cubes <= cubes else 0


def component_bytes(blanks, low, high):
    own = section_slots(blanks, low) + (section_slots(blanks, high) if high != low else 0)
    lower = 0
    if blanks > 0:
        lower = section_slots(blanks - 1, low) + (section_slots(blanks - 1, high) if high != low else 0)
    return own, 3 * own + 2 * lower


def human(number, unit=""):
    for scale, suffix in ((1e12, " T"), (1e9, " G"), (1e6, " M"), (1e3, " k")):
        if number >= scale:
            return "%.1f%s%s" % (number / scale, suffix, unit)
    return "%d %s" % (number, unit) if unit else "%d" % number


def duration(seconds):
    if seconds < 120:
        return "%.0f s" % seconds
    if seconds < 7200:
        return "%.0f min" % (seconds / 60)
    return "%.1f h" % (seconds / 3600)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # Layer 4 here (2026-12-02): 2,955 core-seconds for its 3.49 G slots, file 915 MB.
    parser.add_argument("--core-us-per-slot", type=float, default=0.85,
                        help="core-microseconds a slot costs to solve (layer 4 here: 0.85)")
    parser.add_argument("--bytes-per-slot", type=float, default=0.26,
                        help="bytes a slot takes in the compressed layer file (layer 4: 0.26)")
    parser.add_argument("--nodes", type=int, default=50)
    parser.add_argument("--cores", type=int, default=32, help="cores of a node")
    parser.add_argument("--node-memory", type=float, default=128, help="GB of a node")
    parser.add_argument("--scaling", type=float, default=0.5,
                        help="speed-up of a node's cores on one component, as a share of its cores")
    args = parser.parse_args()
    # the counts checked against the published orbit numbers of docs/design/endgame-tables.md
    assert [orbits(k) for k in range(5)] == [1, 6, 49, 319, 1666]

    print("| blanks | slots | components | largest component | its slots | its memory | "
          "core-hours | layer wall time | file |")
    print("| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    total_slots = total_core_seconds = total_wall = total_bytes = 0
    peak_memory = (0, None)
    node_speed = max(1.0, args.cores * args.scaling)
    for blanks in range(26):
        cubes = 25 - blanks
        slots = sum(section_slots(blanks, m) for m in range(cubes + 1))
        components = [(low, cubes - low) for low in range(cubes // 2 + 1)]
        sizes = [(component_bytes(blanks, low, high), (low, high)) for low, high in components]
        (largest_slots, largest_bytes), (low, high) = max(sizes)
        core_seconds = slots * args.core_us_per_slot / 1e6
        # The components run side by side, one per node; the layer takes the longer of its
        # largest component on one node and all of its work spread over the cluster.
        wall = max(largest_slots * args.core_us_per_slot / 1e6 / node_speed,
                   core_seconds / (args.nodes * node_speed))
        file_bytes = slots * args.bytes_per_slot
        total_slots += slots
        total_core_seconds += core_seconds
        total_wall += wall
        total_bytes += file_bytes
        if largest_bytes > peak_memory[0]:
            peak_memory = (largest_bytes, (blanks, low, high))
        print("| %d | %s | %d | {%d,%d} | %s | %s | %.1f | %s | %s |" % (
            blanks, human(slots), len(components), low, high, human(largest_slots),
            human(largest_bytes, "B"), core_seconds / 3600, duration(wall),
            human(file_bytes, "B")))
    print()
    blanks, low, high = peak_memory[1]
    print("whole game: %s slots (3^25 = %s boards), %.0f core-hours, about %s on %d nodes x %d "
          "cores, %s of files at %.2f bytes a slot; the largest component is {%d,%d} of layer %d, "
          "%s (%s)" % (
              human(total_slots), human(3 ** 25), total_core_seconds / 3600, duration(total_wall),
              args.nodes, args.cores, human(total_bytes, "B"), args.bytes_per_slot, low, high,
              blanks, human(peak_memory[0], "B"),
              "fits a node" if peak_memory[0] <= args.node_memory * 1e9 else
              "more than a node's %g GB" % args.node_memory))


if __name__ == "__main__":
    main()
