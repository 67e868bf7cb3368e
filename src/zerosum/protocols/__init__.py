"""Standard text protocols through which existing GUIs and match managers drive zerosum's
engines: :mod:`zerosum.protocols.gomocup` (the Gomocup / Piskvork brain protocol)."""
