"""Hardware backends: camera sources and the gpiozero button/LED panel. Filled in by the hardware issue."""
