/** Tutorial video modal body: embeds the url held in the modal content (a YouTube embed or a video file). */
export const VideoBody = ({ url }: { url: string | null }) => {
  if (!url) return <p className="muted">No video to show.</p>
  const isEmbed = /youtube(-nocookie)?\.com\/embed\//.test(url)
  return isEmbed ? (
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
