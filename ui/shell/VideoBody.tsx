/** Tutorial video modal body: embeds the url held in the modal content (an embeddable page or a video file). */
export const VideoBody = ({ url }: { url: string | null }) => {
  if (!url) return <p className="muted">No video to show.</p>
  // A video file plays in <video>; anything else (a YouTube embed, our hosted tutorial page) is a frame.
  const isVideoFile = /\.(mp4|webm|ogv)(\?|#|$)/i.test(url)
  return !isVideoFile ? (
    <iframe
      className="video-frame"
      src={url}
      title="Tutorial video"
      allow="autoplay; encrypted-media; picture-in-picture"
      allowFullScreen
    />
  ) : (
    <video
      className="video-frame"
      src={url}
      controls
      autoPlay
      muted
      playsInline
      aria-label="Tutorial video"
    />
  )
}
