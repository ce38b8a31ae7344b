"""The application core. Adapters call :class:`Service`; it answers with :class:`Reply` data."""

from bot.service.replies import Actor, Button, Image, Message, Outgoing, Place, Reply, Select
from bot.service.service import Service

__all__ = ["Actor", "Button", "Image", "Message", "Outgoing", "Place", "Reply", "Select", "Service"]
