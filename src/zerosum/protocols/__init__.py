"""Standard text protocols, both ways: the engines existing GUIs and match managers drive,
and the external engines zerosum's arena drives. :mod:`zerosum.protocols.gomocup` holds
both sides of the Gomocup / Piskvork protocol (zerosum's brain and the agent that plays
an external brain), :mod:`zerosum.protocols.uci` both sides of UCI (chess),
:mod:`zerosum.protocols.gtp` both sides of GTP (board-point games such as othello), and
:mod:`zerosum.protocols.nboard` zerosum's othello engine for the NBoard GUI;
:mod:`zerosum.protocols.engines` runs external engines as child
processes (lines in and out with deadlines, restarts, always reaped)."""
